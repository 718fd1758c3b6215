//! Whether the shadow map is drawn again this frame: only when what casts into it has changed
//! since it was last drawn. A paused model or a still scene keeps its map while the camera
//! moves (at fast quality, until the move changes the copies the shadow pass draws); on a
//! software rasteriser the shadow pass is a quarter to a third of a heavy scene's frame.
//!
//! The record holds everything the shadow passes read, as bytes: the lights' views, which
//! model's buffers, every draw that casts with the copy it casts from, the pose's matrices,
//! morph weights and animated properties, and how the view skins. The vertices posed on the
//! CPU follow from those.
//!
//! What casts: every shown draw of triangles whose material shows something. A material that
//! hides all it covers (blended with alpha 0, as an OBJ's `d 0`; masked under its cutoff: the
//! `invisible-material` lint) casts no shadow either.

use glam::Mat4;

use super::frame_input::FrameInput;
use super::model_buffers::{DrawBuffers, ModelBuffers};

/// Whether `draw` is drawn into the shadow map this frame: shown triangles whose material
/// draws something (`lint::invisible::draws_something`).
pub fn casts_shadow(draw: &DrawBuffers) -> bool {
    draw.shown_triangles() && draw.material_casts_shadow
}

/// What the shadow map was last drawn from, and this frame's record (both reused).
#[derive(Default)]
pub struct ShadowCasters {
    drawn: Vec<u8>,
    now: Vec<u8>,
}

impl ShadowCasters {
    /// Makes this frame's record with `record`; true when it differs from the map's (or the
    /// map was forgotten), and the record is then the map's.
    pub fn changed(&mut self, record: impl FnOnce(&mut Vec<u8>)) -> bool {
        self.now.clear();
        record(&mut self.now);
        let changed = self.drawn.is_empty() || self.now != self.drawn;
        if changed {
            std::mem::swap(&mut self.now, &mut self.drawn);
        }
        changed
    }

    /// Forgets what the map was drawn from (a new map, or one drawn from casters not recorded).
    pub fn forget(&mut self) {
        self.drawn.clear();
    }
}

/// Writes into `record` what the shadow passes read: `views` of the lights drawn into the map's
/// layers, and the shown triangles of `buffers`, posed as `input` says.
pub fn record_casters(record: &mut Vec<u8>, views: &[Mat4], buffers: &ModelBuffers, input: &FrameInput) {
    record.extend_from_slice(&(views.len() as u64).to_le_bytes());
    record.extend_from_slice(bytemuck::cast_slice(views));
    record.extend_from_slice(&buffers.id.to_le_bytes());
    for (index, draw) in buffers.draws.iter().enumerate().filter(|(_, draw)| casts_shadow(draw)) {
        record.extend_from_slice(&(index as u64).to_le_bytes());
        record.extend_from_slice(&(draw.detail.shadow as u64).to_le_bytes());
    }
    record.extend_from_slice(bytemuck::cast_slice(input.model_matrices));
    record.extend_from_slice(bytemuck::cast_slice(input.pose.morph_weights()));
    record.extend_from_slice(bytemuck::cast_slice(input.pose.properties()));
    record.extend_from_slice(&[input.view.gpu_skinning as u8, input.view.skinning_method as u8]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_is_drawn_again_only_when_its_casters_change() {
        let mut casters = ShadowCasters::default();
        let record = |bytes: &'static [u8]| move |out: &mut Vec<u8>| out.extend_from_slice(bytes);
        assert!(casters.changed(record(b"pose a")), "the first frame draws the map");
        assert!(!casters.changed(record(b"pose a")), "the same casters keep it");
        assert!(casters.changed(record(b"pose b")), "a new pose draws it again");
        assert!(!casters.changed(record(b"pose b")));
        casters.forget();
        assert!(casters.changed(record(b"pose b")), "a forgotten map is drawn again");
        assert!(!casters.changed(record(b"pose b")));
    }
}
