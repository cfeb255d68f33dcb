//! A small PTX text writer: a kernel body, fresh virtual registers, and the
//! register declarations that have to precede the body.

use std::fmt::Write;

#[derive(Default)]
pub(crate) struct Emitter {
    module: String,
    body: String,
    decls: Vec<String>,
    b32: usize,
    b64: usize,
    pred: usize,
    labels: usize,
}

impl Emitter {
    /// Text outside any kernel.
    pub fn raw(&mut self, text: &str) {
        self.module.push_str(text);
    }

    /// One instruction line in the current kernel body.
    pub fn ins(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.body, "\t{};", text.as_ref());
    }

    /// A comment line in the current kernel body.
    pub fn comment(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.body, "\t// {}", text.as_ref());
    }

    pub fn label(&mut self, name: &str) {
        let _ = writeln!(self.body, "{name}:");
    }

    /// A label name no other place uses.
    pub fn fresh_label(&mut self, hint: &str) -> String {
        self.labels += 1;
        format!("$L_{hint}_{}", self.labels)
    }

    pub fn r32(&mut self) -> String {
        self.b32 += 1;
        format!("%r{}", self.b32)
    }

    pub fn r64(&mut self) -> String {
        self.b64 += 1;
        format!("%rd{}", self.b64)
    }

    pub fn pred(&mut self) -> String {
        self.pred += 1;
        format!("%p{}", self.pred)
    }

    /// Declares a named register (a test register of one role).
    pub fn declare(&mut self, decl: String) {
        self.decls.push(decl);
    }

    /// Closes the current kernel: its header, declarations and body go into
    /// the module, and the register counters start again.
    pub fn end_kernel(&mut self, header: &str) {
        let _ = writeln!(self.module, "{header}\n{{");
        let _ = writeln!(self.module, "\t.reg .b32 %r<{}>;", self.b32 + 1);
        let _ = writeln!(self.module, "\t.reg .b64 %rd<{}>;", self.b64 + 1);
        let _ = writeln!(self.module, "\t.reg .pred %p<{}>;", self.pred + 1);
        for d in self.decls.drain(..) {
            let _ = writeln!(self.module, "\t{d};");
        }
        self.module.push_str(&self.body);
        self.module.push_str("\tret;\n}\n\n");
        self.body.clear();
        self.b32 = 0;
        self.b64 = 0;
        self.pred = 0;
    }

    pub fn finish(self) -> String {
        self.module
    }
}
