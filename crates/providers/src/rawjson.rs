//! Fields of a raw JSON object read without a float on the way: a number's text is kept as
//! sent (`12.500000` stays `12.500000`), so amounts go from the bytes received to
//! `amount::parse*` exactly. The dialects with JSON bodies (Evolution, Habanero, Golden
//! Race) read their fields with this; a wrong type reads as absent, so every malformed
//! call gets the dialect's "bad parameter" answer, never a panic.

use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// One JSON object, its members kept raw. A repeated key keeps its last value (as
/// `serde_json::Value` does).
#[derive(Debug, Clone)]
pub struct Obj<'a> {
    members: BTreeMap<String, &'a RawValue>,
}

impl<'a> Obj<'a> {
    /// The object `raw` holds, or `None` when it is not one well-formed JSON object.
    pub fn parse(raw: &'a [u8]) -> Option<Obj<'a>> {
        let text = std::str::from_utf8(raw).ok()?;
        Obj::of_text(text)
    }

    fn of_text(text: &'a str) -> Option<Obj<'a>> {
        if !text.trim_start().starts_with('{') {
            return None;
        }
        let members: BTreeMap<String, &'a RawValue> = serde_json::from_str(text).ok()?;
        Some(Obj { members })
    }

    pub fn has(&self, key: &str) -> bool {
        self.members.contains_key(key)
    }

    /// The member's raw JSON text.
    pub fn raw(&self, key: &str) -> Option<&'a str> {
        self.members.get(key).map(|r| r.get())
    }

    /// A nested object.
    pub fn obj(&self, key: &str) -> Option<Obj<'a>> {
        Obj::of_text(self.raw(key)?)
    }

    /// A scalar as text: a string's content, a number's exact text, `true`/`false`.
    /// `null`, objects and arrays read as absent.
    pub fn text(&self, key: &str) -> Option<String> {
        scalar_text(self.raw(key)?)
    }

    /// A non-empty scalar text of at most `max` characters.
    pub fn id(&self, key: &str, max: usize) -> Option<String> {
        self.text(key).filter(|t| !t.trim().is_empty() && t.chars().count() <= max && !t.chars().any(char::is_control))
    }

    /// A boolean: JSON `true`/`false`, or the strings `"true"`/`"false"` (some clients quote
    /// them).
    pub fn bool(&self, key: &str) -> Option<bool> {
        match self.text(key)?.as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }

    /// An array's elements, raw.
    pub fn array(&self, key: &str) -> Option<Vec<&'a RawValue>> {
        let raw = self.raw(key)?;
        if !raw.trim_start().starts_with('[') {
            return None;
        }
        serde_json::from_str(raw).ok()
    }
}

/// An element of an array as an object.
pub fn as_obj(raw: &RawValue) -> Option<Obj<'_>> {
    Obj::of_text(raw.get())
}

/// A raw scalar's text (see [`Obj::text`]).
pub fn scalar_text(raw: &str) -> Option<String> {
    let raw = raw.trim();
    match raw.as_bytes().first()? {
        b'"' => serde_json::from_str::<String>(raw).ok(),
        b'{' | b'[' => None,
        _ if raw == "null" => None,
        _ => Some(raw.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_text_and_types_are_checked() {
        let o = Obj::parse(br#"{"a": 12.500000, "b": "x\"y", "c": {"d": [1, {"e": true}]}, "n": null, "q": "true", "a2": 1e400}"#).unwrap();
        assert_eq!(o.text("a").as_deref(), Some("12.500000"));
        assert_eq!(o.text("a2").as_deref(), Some("1e400"));
        assert_eq!(o.text("b").as_deref(), Some("x\"y"));
        assert_eq!(o.text("c"), None);
        assert_eq!(o.text("n"), None);
        assert_eq!(o.text("missing"), None);
        assert_eq!(o.bool("q"), Some(true));
        assert_eq!(o.bool("a"), None);
        let c = o.obj("c").unwrap();
        assert!(c.obj("d").is_none());
        let d = c.array("d").unwrap();
        assert_eq!(d.len(), 2);
        assert!(as_obj(d[0]).is_none());
        assert_eq!(as_obj(d[1]).unwrap().bool("e"), Some(true));
        assert!(o.array("a").is_none());
        assert_eq!(o.id("b", 2), None);
        assert_eq!(o.id("b", 3).as_deref(), Some("x\"y"));
    }

    #[test]
    fn only_objects_parse() {
        for bad in ["", "[]", "1", "\"x\"", "{", "{\"a\":}", "{} x", "\u{0}"] {
            assert!(Obj::parse(bad.as_bytes()).is_none(), "{bad:?}");
        }
        assert!(Obj::parse(&[0xff, b'{', b'}']).is_none());
        assert!(Obj::parse(b" {} ").is_some());
    }
}
