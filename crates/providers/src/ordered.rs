//! The scalar values of a raw JSON document **in document order**, each as its own text:
//! a string's decoded content, a number's exact text as sent (`1.50` stays `1.50`: no float
//! is involved), `true`/`false`, and `null` as an empty text. Dialects that sign "every
//! value in order" (Golden Race's fingerprint, Evoplay's `*`-joined signature) verify over
//! what this returns for the bytes they received, never over a re-serialisation (which
//! would reorder keys and reformat numbers).

/// One scalar: the key it sits under (`None` in an array or at the top) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    pub key: Option<String>,
    /// How deep it sits (0: a top-level field's value).
    pub depth: usize,
    pub text: String,
}

/// The scalars of `raw`, or `None` when it is not one well-formed JSON document.
pub fn scalars(raw: &[u8]) -> Option<Vec<Scalar>> {
    let text = std::str::from_utf8(raw).ok()?;
    // Well-formedness is serde_json's to judge; the scanner below then only walks.
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let mut p = Scanner { s: text.as_bytes(), src: text, i: 0, out: Vec::new() };
    p.value(None, 0)?;
    Some(p.out)
}

struct Scanner<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
    out: Vec<Scalar>,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    /// A string starting at `self.i` (its opening quote): its decoded content.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.i += 1;
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return serde_json::from_str::<String>(&self.src[start..self.i]).ok();
                }
                _ => self.i += 1,
            }
        }
        None
    }

    fn value(&mut self, key: Option<String>, depth: usize) -> Option<()> {
        self.ws();
        match *self.s.get(self.i)? {
            b'{' => {
                self.i += 1;
                loop {
                    self.ws();
                    match *self.s.get(self.i)? {
                        b'}' => {
                            self.i += 1;
                            return Some(());
                        }
                        b',' => self.i += 1,
                        b'"' => {
                            let k = self.string()?;
                            self.ws();
                            if self.s.get(self.i) != Some(&b':') {
                                return None;
                            }
                            self.i += 1;
                            self.value(Some(k), depth + 1)?;
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.i += 1;
                loop {
                    self.ws();
                    match *self.s.get(self.i)? {
                        b']' => {
                            self.i += 1;
                            return Some(());
                        }
                        b',' => self.i += 1,
                        _ => self.value(None, depth + 1)?,
                    }
                }
            }
            b'"' => {
                let text = self.string()?;
                self.out.push(Scalar { key, depth: depth.saturating_sub(1), text });
                Some(())
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && !matches!(self.s[self.i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    self.i += 1;
                }
                let raw = &self.src[start..self.i];
                let text = if raw == "null" { String::new() } else { raw.to_string() };
                self.out.push(Scalar { key, depth: depth.saturating_sub(1), text });
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(raw: &str) -> Vec<String> {
        scalars(raw.as_bytes()).unwrap().into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn document_order_and_exact_numbers() {
        assert_eq!(texts(r#"{"b": 1.50, "a": "x\"y", "c": [true, null, {"d": -2e3}]}"#), ["1.50", "x\"y", "true", "", "-2e3"]);
        let s = scalars(br#"{"fingerprint":"f","data":{"amount":"1.0"}}"#).unwrap();
        assert_eq!(s[0].key.as_deref(), Some("fingerprint"));
        assert_eq!((s[0].depth, s[1].depth), (0, 1));
        assert_eq!(s[1].key.as_deref(), Some("amount"));
    }

    #[test]
    fn malformed_is_none() {
        for bad in ["", "{", r#"{"a":}"#, r#"{"a":1,}"#, "[1 2]", "{} x"] {
            assert!(scalars(bad.as_bytes()).is_none(), "{bad}");
        }
        assert_eq!(texts("[]"), Vec::<String>::new());
        assert_eq!(texts(r#""top""#), ["top"]);
    }
}
