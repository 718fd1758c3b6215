//! The MD5 text format's tokens: quoted strings, numbers and words, braces and parentheses;
//! `//` comments run to the end of the line. Every token keeps its line for error messages.

#[derive(Clone, Debug, PartialEq)]
pub enum Token<'a> {
    Word(&'a str),
    Text(&'a str),
    Symbol(char),
}

use crate::asset::LoadErrorKind;

pub struct Tokens<'a> {
    tokens: Vec<(Token<'a>, usize)>,
    next: usize,
}

/// An error at a line of the file.
pub fn at_line(line: usize, message: impl std::fmt::Display) -> LoadErrorKind {
    LoadErrorKind::invalid(format!("line {line}"), message.to_string())
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Result<Self, LoadErrorKind> {
        let mut tokens = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let line = line.split("//").next().unwrap_or("");
            let mut rest = line;
            while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
                rest = &rest[start..];
                let first = rest.chars().next().unwrap_or(' ');
                let (token, length) = match first {
                    '{' | '}' | '(' | ')' => (Token::Symbol(first), 1),
                    '"' => {
                        let end = rest[1..]
                            .find('"')
                            .ok_or_else(|| at_line(number, "a quoted name is not closed"))?;
                        (Token::Text(&rest[1..1 + end]), end + 2)
                    }
                    _ => {
                        let end = rest
                            .find(|c: char| c.is_whitespace() || "{}()\"".contains(c))
                            .unwrap_or(rest.len());
                        (Token::Word(&rest[..end]), end)
                    }
                };
                tokens.push((token, number));
                rest = &rest[length..];
            }
        }
        Ok(Self { tokens, next: 0 })
    }

    /// How many tokens are left: an upper bound for counts read from the file.
    pub fn remaining(&self) -> usize {
        self.tokens.len() - self.next
    }

    /// The line of the next token (or of the last one at the end).
    pub fn line(&self) -> usize {
        self.tokens
            .get(self.next)
            .or(self.tokens.last())
            .map_or(1, |(_, line)| *line)
    }

    fn take(&mut self, what: &str) -> Result<(Token<'a>, usize), LoadErrorKind> {
        let token = self
            .tokens
            .get(self.next)
            .cloned()
            .ok_or_else(|| at_line(self.line(), format!("the file ends where {what} was expected")))?;
        self.next += 1;
        Ok(token)
    }

    pub fn peek_word(&self) -> Option<&'a str> {
        match self.tokens.get(self.next) {
            Some((Token::Word(word), _)) => Some(word),
            _ => None,
        }
    }

    pub fn expect_word(&mut self, expected: &str) -> Result<(), LoadErrorKind> {
        match self.take(&format!("'{expected}'"))? {
            (Token::Word(word), _) if word == expected => Ok(()),
            (token, line) => Err(at_line(
                line,
                format!("expected '{expected}', found {}", describe(&token)),
            )),
        }
    }

    pub fn expect_symbol(&mut self, expected: char) -> Result<(), LoadErrorKind> {
        match self.take(&format!("'{expected}'"))? {
            (Token::Symbol(symbol), _) if symbol == expected => Ok(()),
            (token, line) => Err(at_line(
                line,
                format!("expected '{expected}', found {}", describe(&token)),
            )),
        }
    }

    pub fn text(&mut self) -> Result<&'a str, LoadErrorKind> {
        match self.take("a quoted name")? {
            (Token::Text(text), _) => Ok(text),
            (token, line) => Err(at_line(
                line,
                format!("expected a quoted name, found {}", describe(&token)),
            )),
        }
    }

    pub fn float(&mut self) -> Result<f32, LoadErrorKind> {
        match self.take("a number")? {
            (Token::Word(word), line) => word
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| at_line(line, format!("'{word}' is not a finite number"))),
            (token, line) => Err(at_line(line, format!("expected a number, found {}", describe(&token)))),
        }
    }

    pub fn int(&mut self) -> Result<i64, LoadErrorKind> {
        match self.take("a whole number")? {
            (Token::Word(word), line) => word
                .parse::<i64>()
                .map_err(|_| at_line(line, format!("'{word}' is not a whole number"))),
            (token, line) => Err(at_line(
                line,
                format!("expected a whole number, found {}", describe(&token)),
            )),
        }
    }

    /// A count that needs at least `tokens_each` tokens per item in what is left of the file.
    pub fn count(&mut self, tokens_each: usize) -> Result<usize, LoadErrorKind> {
        let line = self.line();
        let value = self.int()?;
        let count = usize::try_from(value).map_err(|_| at_line(line, format!("count {value} is negative")))?;
        if count.saturating_mul(tokens_each) > self.remaining() {
            return Err(at_line(
                line,
                format!("count {count} is more than the rest of the file holds"),
            ));
        }
        Ok(count)
    }

    /// An index in `0..limit`.
    pub fn index(&mut self, limit: usize, what: &str) -> Result<usize, LoadErrorKind> {
        let line = self.line();
        let value = self.int()?;
        usize::try_from(value).ok().filter(|&v| v < limit).ok_or_else(|| {
            at_line(
                line,
                format!("{what} {value} is out of range (0 to {})", limit as i64 - 1),
            )
        })
    }

    /// `( a b c )`.
    pub fn vec3(&mut self) -> Result<[f32; 3], LoadErrorKind> {
        self.expect_symbol('(')?;
        let value = [self.float()?, self.float()?, self.float()?];
        self.expect_symbol(')')?;
        Ok(value)
    }

    /// `key value` where value is a count (the header lines).
    pub fn keyed_count(&mut self, key: &str, tokens_each: usize) -> Result<usize, LoadErrorKind> {
        self.expect_word(key)?;
        self.count(tokens_each)
    }
}

fn describe(token: &Token) -> String {
    match token {
        Token::Word(word) => format!("'{word}'"),
        Token::Text(text) => format!("\"{text}\""),
        Token::Symbol(symbol) => format!("'{symbol}'"),
    }
}
