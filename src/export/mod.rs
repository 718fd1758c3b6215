//! Files rigscope writes: pictures in the format their name asks for, and animated exports
//! (MP4, GIF, APNG, PNG sequences) with the moments each frame shows, all by one convention
//! for where and how they are written (`output`: `-` for standard output, temporary names
//! renamed when complete, links written through). The headless commands, the viewer's "Export
//! clip…" and the glTF writer write through here.

pub(crate) mod frame_plan;
mod h264_encoder;
pub(crate) mod image_file;
mod mp4_file;
pub(crate) mod output;
pub(crate) mod video_file;
