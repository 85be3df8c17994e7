//! Anonymous identity: a random player id in a cookie signed with HMAC-SHA256 under a
//! secret kept in the database, so that the id cannot be forged and survives restarts.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The cookie's name.
pub const COOKIE: &str = "chimere_id";

/// Signs and checks player ids.
#[derive(Clone)]
pub struct Signer {
    secret: Vec<u8>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Signer {
    pub fn new(secret: Vec<u8>) -> Signer {
        Signer { secret }
    }

    fn mac(&self, id: &str) -> Hmac<Sha256> {
        let mut m = Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes any key length");
        m.update(id.as_bytes());
        m
    }

    /// A new random id and its cookie value.
    pub fn issue(&self) -> (String, String) {
        let mut raw = [0u8; 12];
        // Without system randomness the server could not sign either; fall back to time.
        if getrandom::fill(&mut raw).is_err() {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            raw[..8].copy_from_slice(&(t.as_nanos() as u64).to_le_bytes());
        }
        let id = hex(&raw);
        let value = self.sign(&id);
        (id, value)
    }

    /// `id.signature`.
    pub fn sign(&self, id: &str) -> String {
        format!("{id}.{}", hex(&self.mac(id).finalize().into_bytes()))
    }

    /// The id of a cookie value whose signature is right.
    pub fn verify(&self, value: &str) -> Option<String> {
        let (id, sig) = value.rsplit_once('.')?;
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        let bytes: Option<Vec<u8>> =
            (0..sig.len()).step_by(2).map(|i| sig.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok())).collect();
        self.mac(id).verify_slice(&bytes?).ok().map(|_| id.to_string())
    }

    /// The verified id from a `Cookie:` header.
    pub fn from_cookie_header(&self, header: &str) -> Option<String> {
        header
            .split(';')
            .filter_map(|kv| kv.trim().split_once('='))
            .find(|(k, _)| *k == COOKIE)
            .and_then(|(_, v)| self.verify(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_ids_verify_and_forgeries_do_not() {
        let s = Signer::new(b"secret".to_vec());
        let (id, value) = s.issue();
        assert_eq!(s.verify(&value).as_deref(), Some(id.as_str()));
        assert_eq!(s.from_cookie_header(&format!("a=b; {COOKIE}={value}")).as_deref(), Some(id.as_str()));
        let forged = format!("{}0.{}", id, value.rsplit_once('.').unwrap().1);
        assert_eq!(s.verify(&forged), None);
        assert_eq!(Signer::new(b"other".to_vec()).verify(&value), None);
        assert_eq!(s.verify("garbage"), None);
        assert_eq!(s.verify("x.zz"), None);
    }
}
