//! A tiny HTML writer that escapes everything it is given. Tag and attribute names, and the few
//! pieces of fixed markup (the doctype, the style sheet), can only be `&'static str` literals of
//! this crate; every text and attribute value goes through `escape`, so no battle name, side
//! name or unit label can become markup.

/// Text with `& < > " '` as entities: safe between tags and inside a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // A line break or tab is white space in HTML; any other control character is shown
            // by its picture (an older battle file may carry one in a name).
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {
                out.push_str(&referee_core::error::printable(c.encode_utf8(&mut [0; 4])));
            }
            c => out.push(c),
        }
    }
    out
}

#[derive(Default)]
pub struct Html {
    out: String,
}

impl Html {
    /// Fixed markup of this crate (the doctype, the style sheet): never user text.
    pub fn fixed(&mut self, markup: &'static str) -> &mut Self {
        self.out.push_str(markup);
        self
    }

    fn start(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attrs {
            self.out.push(' ');
            self.out.push_str(name);
            self.out.push_str("=\"");
            self.out.push_str(&escape(value));
            self.out.push('"');
        }
    }

    pub fn open(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) -> &mut Self {
        self.start(tag, attrs);
        self.out.push('>');
        self
    }

    pub fn close(&mut self, tag: &'static str) -> &mut Self {
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
        self
    }

    /// An element without content, as SVG writes it: `<line … />`.
    pub fn empty(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) -> &mut Self {
        self.start(tag, attrs);
        self.out.push_str("/>");
        self
    }

    pub fn text(&mut self, text: &str) -> &mut Self {
        self.out.push_str(&escape(text));
        self
    }

    /// `<tag attrs>text</tag>`.
    pub fn element(
        &mut self,
        tag: &'static str,
        attrs: &[(&'static str, &str)],
        text: &str,
    ) -> &mut Self {
        self.open(tag, attrs).text(text).close(tag)
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut h = Html::default();
        h.element(
            "td",
            &[("title", "\"><script>")],
            "<script>alert('1') & co</script>",
        );
        assert_eq!(
            h.finish(),
            "<td title=\"&quot;&gt;&lt;script&gt;\">&lt;script&gt;alert(&#39;1&#39;) &amp; co&lt;/script&gt;</td>"
        );
        assert_eq!(escape("a\u{1b}[2Jb\u{7}"), "a␛[2Jb␇");
    }
}
