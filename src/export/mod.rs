//! Files rigscope writes: pictures in the format their name asks for, and animated exports
//! (GIF, APNG, PNG sequences) with the moments each frame shows. Both the headless commands
//! and the viewer's "Export clip…" write through here.

pub mod frame_plan;
pub mod image_file;
pub mod video_file;
