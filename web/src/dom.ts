// DOM and HTTP helpers shared by the pages.
import type { Decoder } from './decode';
import { errorBody } from './protocol';

export const app = document.getElementById('app')!;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...kids: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

/** The message of a caught error. */
export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** GET (no body) or POST (body: a string as is, anything else as JSON) to the API, decoded. */
export async function api<T>(path: string, decode: Decoder<T>, body?: unknown): Promise<T> {
  const res = await fetch(path, body === undefined ? {} : { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let data: unknown;
  try { data = JSON.parse(text); } catch { throw new Error(res.ok ? 'the server sent an answer this page does not understand' : text || res.statusText); }
  if (!res.ok) {
    let msg = res.statusText;
    try { msg = errorBody(data, '').error; } catch { /* keep the status text */ }
    throw new Error(msg);
  }
  return decode(data, '');
}
