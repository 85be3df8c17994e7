// What the client says about a variant by its name, until the server describes them.

/** A variant's name for a person ("checkered" → "Checkered"). */
export function variantTitle(name: string): string {
  return name ? name[0].toUpperCase() + name.slice(1) : name;
}
