//! Files rigscope writes: pictures in the format their name asks for, and animated exports
//! (MP4, GIF, APNG, PNG sequences) with the moments each frame shows. Both the headless commands
//! and the viewer's "Export clip…" write through here.

pub mod frame_plan;
pub mod h264_encoder;
pub mod image_file;
pub mod mp4_file;
pub mod video_file;
