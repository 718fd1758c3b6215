//! Extensions the file needs that rigscope does not read: the picture here (and in any other
//! viewer without them) is not what the author made.

use super::{Findings, Rule};
use crate::asset::{Model, unsupported_extensions};

pub(super) fn check(model: &Model, findings: &mut Findings) {
    for extension in unsupported_extensions(&model.extensions_used, &model.extensions_required) {
        let (rule, message) = if extension.required {
            (
                Rule::UnsupportedRequiredExtension,
                "the file requires this extension, which rigscope does not read (drawn without it; viewers that refuse required extensions they lack will not open the file)",
            )
        } else {
            (
                Rule::UnsupportedExtension,
                "the file uses this extension, which rigscope does not read (drawn without it)",
            )
        };
        findings.add(rule, format!("extension {}", extension.name), message, 1);
    }
}

#[cfg(test)]
mod tests {
    use crate::asset::demo::demo_model;
    use crate::lint::{Rule, Severity, lint};

    #[test]
    fn unread_extensions_are_warnings_when_required_and_notes_when_only_used() {
        let mut model = demo_model();
        model.extensions_used = vec![
            "EXT_made_up".into(),
            "EXT_optional".into(),
            "KHR_texture_transform".into(),
        ];
        model.extensions_required = vec!["EXT_made_up".into()];
        let findings = lint(&model);
        let about = |rule: Rule| {
            findings
                .iter()
                .filter(|f| f.rule == rule)
                .map(|f| (f.severity, f.subject.as_str()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            about(Rule::UnsupportedRequiredExtension),
            [(Severity::Warning, "extension EXT_made_up")]
        );
        assert_eq!(
            about(Rule::UnsupportedExtension),
            [(Severity::Note, "extension EXT_optional")]
        );
    }
}
