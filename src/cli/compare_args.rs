//! `--compare B` (the viewer): open with B compared with the model, as "Compare with…" does.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::view::compare_layout::CompareLayout;

#[derive(Args, Debug, Default, Clone)]
pub struct CompareArgs {
    /// Compare the model with this one (its next version, say): drawn over it as a ghost or
    /// beside it, playing the clip of the same name at the same time, with the differences
    /// listed in the panel's Compare section.
    #[arg(long, value_name = "B")]
    pub compare: Option<PathBuf>,
    /// How --compare shows B: over the model as a translucent ghost, or beside it.
    #[arg(long, value_enum, value_name = "LAYOUT", default_value_t = CompareLayoutArg::Ghost, requires = "compare")]
    pub compare_layout: CompareLayoutArg,
}

/// `--compare-layout`'s names for `CompareLayout`.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum CompareLayoutArg {
    /// B over the model, translucent.
    #[default]
    Ghost,
    /// B beside the model, lit.
    SideBySide,
}

impl From<CompareLayoutArg> for CompareLayout {
    fn from(arg: CompareLayoutArg) -> Self {
        match arg {
            CompareLayoutArg::Ghost => CompareLayout::Ghost,
            CompareLayoutArg::SideBySide => CompareLayout::SideBySide,
        }
    }
}
