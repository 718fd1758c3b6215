//! Text in any script: egui's built-in fonts cover Latin, Greek and some symbols, so a clip,
//! joint or morph target named in Chinese, Cyrillic, Arabic, Hebrew, Devanagari or Thai would
//! show as boxes. This font provider finds, among the system's fonts, one that has a glyph egui
//! lacks, and egui appends it to the family's fallbacks. The system's fonts are listed only
//! when the first such glyph is asked for, so start-up stays as fast as before.

use std::sync::{Arc, OnceLock};

use egui::epaint::text::{FallbackRequest, FontProvider};
use egui::{FontData, FontFamily, FontInsert, FontPriority, InsertFontFamily};

/// Finds system fonts for characters egui's own fonts lack.
#[derive(Default)]
pub struct SystemFonts {
    /// The system's font faces, listed on first use, regular upright faces first.
    faces: OnceLock<Faces>,
}

struct Faces {
    database: fontdb::Database,
    /// The faces to try, in order of preference.
    order: Vec<fontdb::ID>,
}

/// Installs the system fonts as fallbacks for every family of `ctx`.
pub fn install(ctx: &egui::Context) {
    ctx.add_font_provider(Arc::new(SystemFonts::default()));
}

impl SystemFonts {
    fn faces(&self) -> &Faces {
        self.faces.get_or_init(|| {
            let mut database = fontdb::Database::new();
            database.load_system_fonts();
            let mut faces: Vec<&fontdb::FaceInfo> = database.faces().collect();
            // Regular upright proportional faces read best beside egui's own font.
            faces.sort_by_cached_key(|face| {
                (
                    face.style != fontdb::Style::Normal,
                    face.weight.0.abs_diff(fontdb::Weight::NORMAL.0),
                    face.monospaced,
                    face.post_script_name.clone(),
                )
            });
            let order = faces.iter().map(|face| face.id).collect();
            Faces { database, order }
        })
    }

    /// The first preferred face that has a glyph for `character`, as a font egui can install.
    fn font_with(&self, character: char) -> Option<FontInsert> {
        let Faces { database, order } = self.faces();
        order.iter().find_map(|&id| {
            let font = database.with_face_data(id, |data, index| {
                let face = ttf_parser::Face::parse(data, index).ok()?;
                face.glyph_index(character)?;
                Some(FontData {
                    index,
                    ..FontData::from_owned(data.to_vec())
                })
            })??;
            let name = database
                .face(id)
                .map_or_else(String::new, |face| face.post_script_name.clone());
            Some(FontInsert {
                name: format!("system: {name}"),
                data: font,
                families: [FontFamily::Proportional, FontFamily::Monospace]
                    .into_iter()
                    .map(|family| InsertFontFamily {
                        family,
                        priority: FontPriority::Lowest,
                    })
                    .collect(),
            })
        })
    }
}

impl FontProvider for SystemFonts {
    fn font_for(&self, request: &FallbackRequest<'_>) -> Option<FontInsert> {
        // Control and private-use characters are not text to find a font for.
        let character = request.cluster.chars().next().filter(|c| !c.is_control())?;
        self.font_with(character)
    }
}
