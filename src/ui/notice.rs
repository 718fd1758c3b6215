//! An outcome the user should not miss (a file that failed to open, clips added, a reload, an
//! export written or failed): said in its panel section and in the notice bar over the 3D view
//! (`notice_bar`).

use egui::Color32;

/// An outcome to show: what happened, or what failed and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub failed: bool,
}

impl Notice {
    pub fn done(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            failed: false,
        }
    }

    pub fn failed(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            failed: true,
        }
    }

    /// The colour the panel and the bar write it in.
    pub fn color(&self) -> Color32 {
        if self.failed {
            Color32::from_rgb(255, 110, 100)
        } else {
            Color32::from_rgb(150, 210, 150)
        }
    }
}
