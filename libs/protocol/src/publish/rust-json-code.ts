/** clients/rust/palimpsest_client/json.rs: a small JSON value, reader and ASCII writer, std only (the same for every catalog). */
export const RUST_JSON_CODE = String.raw`//! A small JSON value, reader and ASCII writer: std only, so the helpers need no crate.
use super::ClientError;

/// A JSON value. Numbers keep their token, so an id of 2^64-1 reads back exactly.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(String),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn str(s: &str) -> Json {
        Json::Str(s.to_string())
    }
    pub fn int(n: i64) -> Json {
        Json::Number(n.to_string())
    }
    pub fn object(pairs: Vec<(&str, Json)>) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(t) => t.parse().ok(),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }
    /// Compact JSON, ASCII only: every other character as \u escapes, so no line separator can split a line.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(t) => out.push_str(t),
            Json::Str(s) => write_str(s, out),
            Json::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Json::Object(pairs) => {
                out.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(k, out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
    /// Reads one JSON text (a lone surrogate escape reads as U+FFFD).
    pub fn parse(text: &str) -> Result<Json, ClientError> {
        let mut p = Reader { s: text.as_bytes(), i: 0 };
        let v = p.value(0)?;
        p.ws();
        if p.i != p.s.len() {
            return p.fail("text after the value");
        }
        Ok(v)
    }
}

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || (c as u32) >= 0x7f => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn fail<T>(&self, what: &str) -> Result<T, ClientError> {
        Err(ClientError::new("invalid_json", &format!("{} at byte {}", what, self.i)))
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn eat(&mut self, b: u8) -> Result<(), ClientError> {
        self.ws();
        if self.s.get(self.i) != Some(&b) {
            return self.fail(&format!("expected '{}'", b as char));
        }
        self.i += 1;
        Ok(())
    }
    fn word(&mut self, word: &str, value: Json) -> Result<Json, ClientError> {
        if !self.s[self.i..].starts_with(word.as_bytes()) {
            return self.fail("unknown literal");
        }
        self.i += word.len();
        Ok(value)
    }
    fn value(&mut self, depth: usize) -> Result<Json, ClientError> {
        if depth > 256 {
            return self.fail("nesting deeper than 256");
        }
        self.ws();
        match self.s.get(self.i).copied() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(c) if c == b'-' || c.is_ascii_digit() => self.number(),
            _ => self.fail("expected a value"),
        }
    }
    fn object(&mut self, depth: usize) -> Result<Json, ClientError> {
        self.i += 1;
        let mut pairs: Vec<(String, Json)> = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(Json::Object(pairs));
        }
        loop {
            self.ws();
            let key = self.string()?;
            if pairs.iter().any(|(k, _)| *k == key) {
                return self.fail("duplicate member");
            }
            self.eat(b':')?;
            pairs.push((key, self.value(depth + 1)?));
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Object(pairs));
                }
                _ => return self.fail("expected ',' or '}'"),
            }
        }
    }
    fn array(&mut self, depth: usize) -> Result<Json, ClientError> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Array(items));
                }
                _ => return self.fail("expected ',' or ']'"),
            }
        }
    }
    fn number(&mut self) -> Result<Json, ClientError> {
        let start = self.i;
        while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
            self.i += 1;
        }
        let token = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        if token.parse::<f64>().is_err() {
            return self.fail("malformed number");
        }
        Ok(Json::Number(token.to_string()))
    }
    fn hex4(&mut self) -> Result<u32, ClientError> {
        let digits = self.s.get(self.i..self.i + 4).and_then(|d| std::str::from_utf8(d).ok());
        match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
            Some(n) => {
                self.i += 4;
                Ok(n)
            }
            None => self.fail("malformed \\u escape"),
        }
    }
    fn escape(&mut self, out: &mut String) -> Result<(), ClientError> {
        let c = self.s.get(self.i).copied();
        self.i += 1;
        match c {
            Some(b'"') => out.push('"'),
            Some(b'\\') => out.push('\\'),
            Some(b'/') => out.push('/'),
            Some(b'b') => out.push('\u{8}'),
            Some(b'f') => out.push('\u{c}'),
            Some(b'n') => out.push('\n'),
            Some(b'r') => out.push('\r'),
            Some(b't') => out.push('\t'),
            Some(b'u') => {
                let hi = self.hex4()?;
                let mut code = hi;
                if (0xd800..0xdc00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
                    let save = self.i;
                    self.i += 2;
                    let lo = self.hex4()?;
                    if (0xdc00..0xe000).contains(&lo) {
                        code = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                    } else {
                        self.i = save;
                    }
                }
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            _ => return self.fail("unknown escape"),
        }
        Ok(())
    }
    fn string(&mut self) -> Result<String, ClientError> {
        if self.s.get(self.i) != Some(&b'"') {
            return self.fail("expected a string");
        }
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.i < self.s.len() && !matches!(self.s[self.i], b'"' | b'\\') && self.s[self.i] >= 0x20 {
                self.i += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).map_err(|_| ClientError::new("invalid_json", "invalid UTF-8"))?);
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    self.escape(&mut out)?;
                }
                _ => return self.fail("unterminated string or a control character in it"),
            }
        }
    }
}
`;
