//! Rendered frames to H.264 (Constrained Baseline, the profile every player decodes) with
//! Cisco's OpenH264, built from source by the `openh264` crate: no system library, no codec
//! to install. Each frame becomes one MP4 sample (`mp4_file`): its NAL units, each after a
//! 4-byte length, with the parameter sets kept aside for the sample description.
//!
//! Colours: OpenH264's converter turns sRGB pixels into limited-range BT.601 Y'CbCr with 4:2:0
//! chroma (each 2x2 block's average); the stream's VUI and the MP4's colour box say so, so
//! players convert back with the same matrix. No frame is skipped, so the video has exactly
//! the frames rendered (OpenH264's buffer-based rate control, which alone of its modes does not
//! skip frames to keep to a bit rate: the quality stays about constant and the size follows the
//! picture), and a key frame every two seconds lets players seek.

use anyhow::{Context, bail};
use image::RgbaImage;
use openh264::OpenH264API;
use openh264::Timestamp;
use openh264::encoder::{
    Encoder, EncoderConfig, FrameRate, FrameType, IntraFramePeriod, MatrixCoefficients, Profile, QpRange,
    RateControlMode, VuiConfig,
};
use openh264::formats::{RgbaSliceU8, YUVBuffer};

use super::mp4_file::ParameterSets;

/// The largest frame OpenH264 encodes (level 5.2): 3840x2160, either way round.
pub const MAX_SIZE: (u32, u32) = (3840, 2160);
/// The smallest side it encodes: one macroblock.
pub const MIN_SIDE: u32 = 16;
/// The finest quantiser the encoder may use (H.264's QP, 0-51; the rest is up to OpenH264's
/// buffer-based rate control, which holds quality about constant). At 24 a rendered picture
/// comes back within about 38-40 dB of the render (4:2:0 colour alone keeps it under about 41),
/// like x264's default quality: 1.1 Mbit/s for Fox running at 1280x720 and 25 fps, 8.6 Mbit/s
/// for a whole turn in 2 s, whose grid moves everywhere. Without it, that turn took 22 Mbit/s.
const MIN_QP: u8 = 24;
/// NAL unit types (ITU-T H.264 table 7-1) kept out of the samples.
const NAL_SPS: u8 = 7;
const NAL_PPS: u8 = 8;

/// An H.264 stream being encoded.
pub struct H264Encoder {
    encoder: Encoder,
    fps: u32,
    /// The frame in the encoder's colour format, reused.
    yuv: YUVBuffer,
    parameter_sets: ParameterSets,
    /// The last frame's sample, reused.
    sample: Vec<u8>,
    frames: u64,
}

impl H264Encoder {
    /// An encoder for frames of `(width, height)` (even, at most `MAX_SIZE`) at `fps`.
    pub fn new((width, height): (u32, u32), fps: u32) -> anyhow::Result<Self> {
        check_size((width, height))?;
        let config = EncoderConfig::new()
            .profile(Profile::Baseline)
            .rate_control_mode(RateControlMode::Bufferbased)
            .qp(QpRange::new(MIN_QP, 51))
            .max_frame_rate(FrameRate::from_hz(fps as f32))
            .skip_frames(false)
            .intra_frame_period(IntraFramePeriod::from_num_frames(2 * fps))
            .vui(
                VuiConfig::srgb()
                    .matrix_coefficients(MatrixCoefficients::Smpte170M)
                    .full_range(false),
            );
        let encoder =
            Encoder::with_api_config(OpenH264API::from_source(), config).context("cannot start the H.264 encoder")?;
        Ok(Self {
            encoder,
            fps,
            yuv: YUVBuffer::new(width as usize, height as usize),
            parameter_sets: ParameterSets::default(),
            sample: Vec::new(),
            frames: 0,
        })
    }

    /// Encodes the next frame; returns its sample and whether it is a key frame.
    pub fn encode(&mut self, image: &RgbaImage) -> anyhow::Result<(&[u8], bool)> {
        let (width, height) = image.dimensions();
        self.yuv
            .read_rgba8(RgbaSliceU8::new(image.as_raw(), (width as usize, height as usize)));
        let millis = self.frames * 1000 / u64::from(self.fps);
        let stream = self
            .encoder
            .encode_at(&self.yuv, Timestamp::from_millis(millis))
            .with_context(|| format!("cannot encode frame {} as H.264", self.frames + 1))?;
        let key_frame = stream.frame_type() == FrameType::IDR;
        self.sample.clear();
        for layer in (0..stream.num_layers()).filter_map(|l| stream.layer(l)) {
            for nal in (0..layer.nal_count()).filter_map(|n| layer.nal_unit(n)) {
                let nal = without_start_code(nal);
                match nal.first().map(|header| header & 0x1f) {
                    Some(NAL_SPS) => self.parameter_sets.sps = nal.to_vec(),
                    Some(NAL_PPS) => self.parameter_sets.pps = nal.to_vec(),
                    Some(_) => {
                        self.sample.extend_from_slice(&(nal.len() as u32).to_be_bytes());
                        self.sample.extend_from_slice(nal);
                    }
                    None => {}
                }
            }
        }
        if self.sample.is_empty() {
            bail!("the H.264 encoder gave nothing for frame {}", self.frames + 1);
        }
        self.frames += 1;
        Ok((&self.sample, key_frame))
    }

    /// The stream's parameter sets, once a frame is encoded.
    pub fn parameter_sets(&self) -> &ParameterSets {
        &self.parameter_sets
    }
}

/// Refuses sizes H.264 4:2:0 cannot hold (odd sides) or OpenH264 cannot encode (too small or
/// too big).
pub fn check_size((width, height): (u32, u32)) -> anyhow::Result<()> {
    if width % 2 == 1 || height % 2 == 1 {
        bail!("{width}x{height}: an MP4's frames need even sides (H.264 stores colour per 2x2 pixels)");
    }
    let (long, short) = (width.max(height), width.min(height));
    if short < MIN_SIDE {
        bail!("{width}x{height}: an MP4's frames are at least {MIN_SIDE} pixels a side");
    }
    if long > MAX_SIZE.0 || short > MAX_SIZE.1 {
        bail!(
            "{width}x{height}: an MP4's frames are at most {}x{} (or {1}x{0})",
            MAX_SIZE.0,
            MAX_SIZE.1
        );
    }
    Ok(())
}

/// A NAL unit from the encoder without its Annex B start code (00 00 01 or 00 00 00 01).
fn without_start_code(nal: &[u8]) -> &[u8] {
    let zeros = nal.iter().take_while(|&&byte| byte == 0).count();
    match nal.get(zeros) {
        Some(1) if zeros >= 2 => &nal[zeros + 1..],
        _ => nal,
    }
}
