//! Writing an animated export frame by frame: an H.264 video in an MP4 (`.mp4`), an animated
//! GIF (`.gif`), an animated PNG (`.png`, `.apng`) or a numbered PNG sequence (a directory,
//! existing or new: `frame_0001.png`…). Frames are written as they are rendered, so memory
//! stays at one frame (and an MP4's index, 13 bytes a frame).
//!
//! GIF frames each get their own 256-colour palette, chosen by NeuQuant from that frame's
//! colours (the gif crate's quantiser), and the frame delays of `FramePlan::gif_delay`. APNG
//! frames are stored losslessly and each stays exactly `1/fps` s, as do an MP4's (`mp4_file`,
//! `h264_encoder`). The MP4, GIF and APNG are written by `output`'s convention: under a
//! temporary name renamed when complete, so a failed or cancelled export leaves no half-written
//! file (and an existing one as it was); a GIF or APNG goes to standard output for `-`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use image::RgbaImage;

use super::frame_plan::{FramePlan, MAX_GIF_FPS};
use super::h264_encoder::{self, H264Encoder};
use super::image_file;
use super::mp4_file::Mp4File;
use super::output::{self, PartialFile};

/// How finely NeuQuant samples a frame's colours: 1 (best, slowest) to 30; 10 is the gif
/// crate's suggested balance.
const GIF_QUANTISER_SPEED: i32 = 10;

/// The kind of file an output path asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoKind {
    Mp4,
    Gif,
    Apng,
    Sequence,
}

impl VideoKind {
    /// `.mp4`, `.gif`, `.png` or `.apng`, or a directory (one that exists, or a name without an
    /// extension); `-` (standard output) says nothing of the kind.
    pub fn of(path: &Path) -> anyhow::Result<Self> {
        if output::is_standard_output(path) {
            bail!("-o - (standard output) needs the kind of video: give --format gif or --format apng");
        }
        if path.is_dir() {
            return Ok(Self::Sequence);
        }
        let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("mp4") => Ok(Self::Mp4),
            Some("gif") => Ok(Self::Gif),
            Some("png" | "apng") => Ok(Self::Apng),
            None => Ok(Self::Sequence),
            Some(other) => bail!(
                "cannot write a video to {}: .{other} is not .mp4, .gif, .png or .apng, nor a directory",
                path.display()
            ),
        }
    }
}

/// An export being written.
pub struct VideoFile {
    sink: Sink,
    path: PathBuf,
    plan: FramePlan,
    /// Frames written so far.
    written: u32,
    /// The temporary file an MP4, GIF or APNG is written to, until `finish` renames it (none
    /// for standard output and a sequence); dropped unfinished, it is removed.
    partial: Option<PartialFile>,
}

/// Where a GIF's or APNG's bytes go: a file or standard output.
type Stream = Box<dyn Write + Send>;

enum Sink {
    // Boxed: OpenH264's output description is 7.6 kB.
    Mp4(Box<H264Encoder>, Mp4File<BufWriter<File>>),
    Gif(gif::Encoder<Stream>),
    Apng(png::Writer<Stream>),
    Sequence,
}

impl VideoFile {
    /// Starts writing `plan`'s frames of `width` x `height` to `path`, as `VideoKind::of` it.
    pub fn create(path: &Path, size: (u32, u32), plan: FramePlan) -> anyhow::Result<Self> {
        Self::create_as(path, VideoKind::of(path)?, size, plan)
    }

    /// Starts writing `plan`'s frames as a `kind` video to `path` (standard output for `-`,
    /// where a GIF and an APNG can go, but not an MP4, whose index follows its frames, nor a
    /// sequence of files).
    pub fn create_as(
        path: &Path,
        kind: VideoKind,
        (width, height): (u32, u32),
        plan: FramePlan,
    ) -> anyhow::Result<Self> {
        if output::is_standard_output(path) {
            match kind {
                VideoKind::Mp4 => bail!(
                    "an MP4 cannot go to standard output (-o -): its index is written after the frames; write it to a file, or give --format gif or apng"
                ),
                VideoKind::Sequence => {
                    bail!("a PNG sequence is a folder of files and cannot go to standard output (-o -)")
                }
                VideoKind::Gif | VideoKind::Apng => {}
            }
        }
        if kind == VideoKind::Gif && plan.fps > MAX_GIF_FPS {
            bail!(
                "--fps {}: a GIF shows at most {MAX_GIF_FPS} frames a second (players slow shorter delays down); write an APNG (.png) for more",
                plan.fps
            );
        }
        if kind == VideoKind::Mp4 {
            h264_encoder::check_size((width, height))?;
        }
        let mut video = Self {
            sink: Sink::Sequence,
            path: path.to_path_buf(),
            plan,
            written: 0,
            partial: None,
        };
        let context = || format!("cannot write {}", output::describe(path));
        if kind == VideoKind::Sequence {
            std::fs::create_dir_all(path).with_context(context)?;
            return Ok(video);
        }
        if kind == VideoKind::Mp4 {
            let (partial, file) = PartialFile::create(path).with_context(context)?;
            video.partial = Some(partial);
            video.sink = Sink::Mp4(
                Box::new(H264Encoder::new((width, height), plan.fps)?),
                Mp4File::create(BufWriter::new(file), (width, height), plan.fps).with_context(context)?,
            );
            return Ok(video);
        }
        output::refuse_binary_on_terminal(path, "a video").with_context(context)?;
        let (stream, partial) = output::open(path).with_context(context)?;
        video.partial = partial;
        video.sink = match kind {
            VideoKind::Gif => Sink::Gif(gif_encoder(stream, (width, height)).with_context(context)?),
            _ => Sink::Apng(apng_writer(stream, (width, height), &plan).with_context(context)?),
        };
        Ok(video)
    }

    /// Writes the next frame (a GIF quantises its pixels in place, so it takes the image).
    pub fn push(&mut self, image: RgbaImage) -> anyhow::Result<()> {
        let context = || {
            format!(
                "cannot write frame {} to {}",
                self.written + 1,
                output::describe(&self.path)
            )
        };
        match &mut self.sink {
            Sink::Mp4(encoder, file) => {
                let (sample, key_frame) = encoder.encode(&image).with_context(context)?;
                file.add_sample(sample, key_frame).with_context(context)?;
            }
            Sink::Gif(encoder) => {
                let (width, height) = (image.width() as u16, image.height() as u16);
                let mut pixels = image.into_raw();
                let mut frame = gif::Frame::from_rgba_speed(width, height, &mut pixels, GIF_QUANTISER_SPEED);
                frame.delay = self.plan.gif_delay(self.written);
                encoder.write_frame(&frame).with_context(context)?;
            }
            Sink::Apng(writer) => writer.write_image_data(image.as_raw()).with_context(context)?,
            Sink::Sequence => {
                let name = format!("frame_{:04}.png", self.written + 1);
                image_file::save(&image, &self.path.join(name))?;
            }
        }
        self.written += 1;
        Ok(())
    }

    /// Completes the file once every frame of the plan is written.
    pub fn finish(mut self) -> anyhow::Result<()> {
        if self.written != self.plan.frames {
            bail!(
                "{}: {} of {} frames were written",
                output::describe(&self.path),
                self.written,
                self.plan.frames
            );
        }
        let context = || format!("cannot write {}", output::describe(&self.path));
        match std::mem::replace(&mut self.sink, Sink::Sequence) {
            Sink::Mp4(encoder, file) => {
                let file = file.finish(encoder.parameter_sets()).with_context(context)?;
                file.into_inner()
                    .map_err(|e| anyhow!("{}", e.error()))
                    .with_context(context)?;
            }
            Sink::Gif(encoder) => {
                let mut stream = encoder.into_inner().with_context(context)?;
                stream.flush().with_context(context)?;
            }
            // `finish` flushes the stream.
            Sink::Apng(writer) => writer.finish().with_context(context)?,
            Sink::Sequence => {}
        }
        if let Some(partial) = self.partial.take() {
            partial.commit().with_context(context)?;
        }
        Ok(())
    }
}

fn gif_encoder(file: Stream, (width, height): (u32, u32)) -> anyhow::Result<gif::Encoder<Stream>> {
    let side = |pixels: u32| u16::try_from(pixels).map_err(|_| anyhow!("a GIF is at most 65535 pixels a side"));
    let mut encoder = gif::Encoder::new(file, side(width)?, side(height)?, &[])?;
    encoder.set_repeat(gif::Repeat::Infinite)?;
    Ok(encoder)
}

fn apng_writer(file: Stream, (width, height): (u32, u32), plan: &FramePlan) -> anyhow::Result<png::Writer<Stream>> {
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    // Played forever (0 plays), like the GIF.
    encoder.set_animated(plan.frames, 0)?;
    // FramePlan bounds fps to MAX_FPS, well inside u16.
    encoder.set_frame_delay(1, plan.fps as u16)?;
    Ok(encoder.write_header()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_pick_the_kind_and_unknown_extensions_are_refused() {
        assert_eq!(VideoKind::of(Path::new("a/walk.GIF")).unwrap(), VideoKind::Gif);
        assert_eq!(VideoKind::of(Path::new("walk.mp4")).unwrap(), VideoKind::Mp4);
        assert_eq!(VideoKind::of(Path::new("walk.png")).unwrap(), VideoKind::Apng);
        assert_eq!(VideoKind::of(Path::new("walk.apng")).unwrap(), VideoKind::Apng);
        assert_eq!(VideoKind::of(Path::new("frames")).unwrap(), VideoKind::Sequence);
        assert_eq!(VideoKind::of(&std::env::temp_dir()).unwrap(), VideoKind::Sequence);
        let error = VideoKind::of(Path::new("-")).unwrap_err().to_string();
        assert!(error.contains("--format gif"), "{error}");
        let error = VideoKind::of(Path::new("walk.avi")).unwrap_err().to_string();
        assert!(
            error.contains("walk.avi") && error.contains(".avi is not .mp4"),
            "{error}"
        );
    }

    #[test]
    fn an_unfinished_export_leaves_no_file() {
        let dir = std::env::temp_dir().join(format!("rigscope-video-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plan = FramePlan::new((0.0, 1.0), 2, None, false).unwrap();
        let image = RgbaImage::from_pixel(16, 16, image::Rgba([10, 200, 30, 255]));
        for name in ["a.mp4", "a.gif", "a.png"] {
            let path = dir.join(name);
            let mut video = VideoFile::create(&path, (16, 16), plan).unwrap();
            video.push(image.clone()).unwrap();
            let error = video.finish().unwrap_err().to_string();
            assert!(error.contains("1 of 2 frames"), "{error}");
            assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "{name} left a file");
        }
        let fast = FramePlan::new((0.0, 1.0), 60, None, false).unwrap();
        let error = VideoFile::create(&dir.join("b.gif"), (8, 4), fast).err().unwrap();
        assert!(error.to_string().contains("--fps 60"), "{error}");
        let error = VideoFile::create(&dir.join("b.mp4"), (8, 4), plan).err().unwrap();
        assert!(error.to_string().contains("at least 16 pixels"), "{error}");
        assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn standard_output_takes_a_gif_or_an_apng_but_no_mp4_nor_sequence() {
        let plan = FramePlan::new((0.0, 1.0), 2, None, false).unwrap();
        let stdout = Path::new("-");
        for (kind, words) in [
            (VideoKind::Mp4, "index is written after"),
            (VideoKind::Sequence, "folder of files"),
        ] {
            let error = VideoFile::create_as(stdout, kind, (16, 16), plan)
                .err()
                .unwrap()
                .to_string();
            assert!(error.contains(words) && error.contains("standard output"), "{error}");
        }
        assert!(!Path::new("-").exists(), "no folder named -");
    }
}
