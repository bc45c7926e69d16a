//! Reading `--format json` output: the records are parsed by serde_json
//! (`serde_json::from_str::<Value>`, which rejects trailing garbage), and
//! these accessors fail the test, showing the value, when a field has the
//! wrong type. `value["key"]` reads a field (`Null` when it is missing, which
//! every accessor below refuses).

use serde_json::Value;

/// Typed reads of a JSON value that panic with the value when it is of
/// another type.
pub(crate) trait JsonRead {
    /// A string's text.
    fn str(&self) -> &str;
    /// An integer (a count beyond `i64` is refused).
    fn int(&self) -> i64;
    /// An array's items.
    fn arr(&self) -> &[Value];
    /// An object's keys, sorted.
    fn keys(&self) -> Vec<&str>;
}

impl JsonRead for Value {
    fn str(&self) -> &str {
        self.as_str()
            .unwrap_or_else(|| panic!("not a string: {self:?}"))
    }
    fn int(&self) -> i64 {
        self.as_i64()
            .unwrap_or_else(|| panic!("not an integer: {self:?}"))
    }
    fn arr(&self) -> &[Value] {
        self.as_array()
            .unwrap_or_else(|| panic!("not an array: {self:?}"))
    }
    fn keys(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = self
            .as_object()
            .unwrap_or_else(|| panic!("not an object: {self:?}"))
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        keys
    }
}

/// Parses one JSON document (a line of JSON Lines).
pub(crate) fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}
