//! An MP4 file (ISO/IEC 14496-12 and -15) holding one H.264 video track, written as the frames
//! come: `ftyp`, then the samples into one `mdat`, then at the end the `moov` that indexes them
//! (the encoded frames are never held; only 13 bytes of index per frame). Timestamps are exact:
//! the track's timescale is `fps × 512` ticks a second (as ffmpeg picks), every sample lasts
//! 512 ticks, so frame `i` starts at exactly `i / fps` s.
//!
//! The sample entry is `avc1` with its `avcC` (the parameter sets are there, not in the
//! samples) and an `nclx` colour box naming what `h264_encoder` writes: BT.709 primaries,
//! sRGB transfer, BT.601 matrix, limited range.

use std::io::{Seek, SeekFrom, Write};

use anyhow::{Context, bail};

/// Track ticks per frame; the track's timescale is `fps` times this.
const TICKS_PER_FRAME: u32 = 512;
/// The movie header's timescale (milliseconds), for its and the track header's durations.
const MOVIE_TIMESCALE: u32 = 1000;

/// The H.264 parameter sets a decoder needs before the first frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParameterSets {
    /// The sequence parameter set NAL unit, without a start code or length.
    pub sps: Vec<u8>,
    /// The picture parameter set NAL unit.
    pub pps: Vec<u8>,
}

/// An MP4 being written to `W`.
pub struct Mp4File<W: Write + Seek> {
    out: W,
    size: (u32, u32),
    fps: u32,
    /// Where the `mdat` box starts, to write its size at the end.
    mdat_start: u64,
    /// The file offset the next sample goes to.
    end: u64,
    sample_offsets: Vec<u64>,
    sample_sizes: Vec<u32>,
    /// The 1-based numbers of the samples a decoder can start from.
    sync_samples: Vec<u32>,
}

impl<W: Write + Seek> Mp4File<W> {
    /// Starts a file of `size` frames at `fps` frames a second.
    pub fn create(mut out: W, size: (u32, u32), fps: u32) -> anyhow::Result<Self> {
        let mut head = Boxes::default();
        head.add(b"ftyp", |b| {
            b.bytes(b"isom");
            b.u32(0x200);
            for brand in [b"isom", b"iso2", b"avc1", b"mp41"] {
                b.bytes(brand);
            }
        });
        // A 64-bit size (1, then the real size after the type), filled in by `finish`.
        let mdat_start = head.0.len() as u64;
        head.u32(1);
        head.bytes(b"mdat");
        head.u64(0);
        out.write_all(&head.0)?;
        Ok(Self {
            out,
            size,
            fps,
            mdat_start,
            end: head.0.len() as u64,
            sample_offsets: Vec::new(),
            sample_sizes: Vec::new(),
            sync_samples: Vec::new(),
        })
    }

    /// Appends one frame: its NAL units, each after its 4-byte big-endian length; `sync` when a
    /// decoder can start there (an IDR frame).
    pub fn add_sample(&mut self, sample: &[u8], sync: bool) -> anyhow::Result<()> {
        let size = u32::try_from(sample.len()).context("an encoded frame is over 4 GB")?;
        self.out.write_all(sample)?;
        self.sample_offsets.push(self.end);
        self.sample_sizes.push(size);
        if sync {
            self.sync_samples.push(self.sample_sizes.len() as u32);
        }
        self.end += u64::from(size);
        Ok(())
    }

    /// Writes the index (`moov`) after the samples and the `mdat`'s size; returns the writer.
    pub fn finish(mut self, parameter_sets: &ParameterSets) -> anyhow::Result<W> {
        if self.sync_samples.first() != Some(&1) {
            bail!("the first frame of an MP4 must be a key frame");
        }
        if parameter_sets.sps.len() < 4 || parameter_sets.pps.is_empty() {
            bail!("the H.264 encoder gave no parameter sets");
        }
        let moov = self.moov(parameter_sets);
        self.out.write_all(&moov.0)?;
        self.out.seek(SeekFrom::Start(self.mdat_start + 8))?;
        self.out.write_all(&(self.end - self.mdat_start).to_be_bytes())?;
        self.out.seek(SeekFrom::End(0))?;
        self.out.flush()?;
        Ok(self.out)
    }

    fn moov(&self, parameter_sets: &ParameterSets) -> Boxes {
        let frames = self.sample_sizes.len() as u32;
        let track_timescale = self.fps * TICKS_PER_FRAME;
        let track_duration = frames * TICKS_PER_FRAME;
        let movie_duration = (u64::from(frames) * u64::from(MOVIE_TIMESCALE)).div_ceil(u64::from(self.fps)) as u32;
        let (width, height) = self.size;
        let mut b = Boxes::default();
        b.add(b"moov", |b| {
            b.full(b"mvhd", 0, 0, |b| {
                b.u32(0); // creation time
                b.u32(0); // modification time
                b.u32(MOVIE_TIMESCALE);
                b.u32(movie_duration);
                b.u32(0x0001_0000); // rate 1.0
                b.u16(0x0100); // volume 1.0
                b.zeros(10);
                b.identity_matrix();
                b.zeros(24);
                b.u32(2); // next track ID
            });
            b.add(b"trak", |b| {
                // Flags: enabled, in the movie.
                b.full(b"tkhd", 0, 3, |b| {
                    b.u32(0);
                    b.u32(0);
                    b.u32(1); // track ID
                    b.u32(0);
                    b.u32(movie_duration);
                    b.zeros(8);
                    b.u16(0); // layer
                    b.u16(0); // alternate group
                    b.u16(0); // volume: none for video
                    b.u16(0);
                    b.identity_matrix();
                    b.u32(width << 16);
                    b.u32(height << 16);
                });
                b.add(b"mdia", |b| {
                    b.full(b"mdhd", 0, 0, |b| {
                        b.u32(0);
                        b.u32(0);
                        b.u32(track_timescale);
                        b.u32(track_duration);
                        b.u16(0x55c4); // language "und"
                        b.u16(0);
                    });
                    b.full(b"hdlr", 0, 0, |b| {
                        b.u32(0);
                        b.bytes(b"vide");
                        b.zeros(12);
                        b.bytes(b"VideoHandler\0");
                    });
                    b.add(b"minf", |b| {
                        b.full(b"vmhd", 0, 1, |b| b.zeros(8));
                        b.add(b"dinf", |b| {
                            b.full(b"dref", 0, 0, |b| {
                                b.u32(1);
                                // Flag 1: the samples are in this file.
                                b.full(b"url ", 0, 1, |_| {});
                            });
                        });
                        b.add(b"stbl", |b| self.sample_table(b, parameter_sets));
                    });
                });
            });
        });
        b
    }

    fn sample_table(&self, b: &mut Boxes, parameter_sets: &ParameterSets) {
        let (width, height) = self.size;
        b.full(b"stsd", 0, 0, |b| {
            b.u32(1);
            b.add(b"avc1", |b| {
                b.zeros(6);
                b.u16(1); // data reference index
                b.zeros(16);
                b.u16(width as u16);
                b.u16(height as u16);
                b.u32(0x0048_0000); // 72 dpi
                b.u32(0x0048_0000);
                b.u32(0);
                b.u16(1); // frames per sample
                let name = b"rigscope H.264";
                b.u8(name.len() as u8);
                b.bytes(name);
                b.zeros(31 - name.len());
                b.u16(0x18); // depth: colour, no alpha
                b.u16(0xffff); // pre-defined -1
                b.add(b"avcC", |b| avc_configuration(b, parameter_sets));
                b.add(b"colr", |b| {
                    b.bytes(b"nclx");
                    b.u16(1); // primaries: BT.709 (sRGB's)
                    b.u16(13); // transfer: sRGB
                    b.u16(6); // matrix: BT.601
                    b.u8(0); // limited range
                });
            });
        });
        let frames = self.sample_sizes.len() as u32;
        b.full(b"stts", 0, 0, |b| {
            b.u32(1);
            b.u32(frames);
            b.u32(TICKS_PER_FRAME);
        });
        b.full(b"stss", 0, 0, |b| {
            b.u32(self.sync_samples.len() as u32);
            self.sync_samples.iter().for_each(|&n| b.u32(n));
        });
        // One sample per chunk.
        b.full(b"stsc", 0, 0, |b| {
            b.u32(1);
            b.u32(1);
            b.u32(1);
            b.u32(1);
        });
        b.full(b"stsz", 0, 0, |b| {
            b.u32(0);
            b.u32(frames);
            self.sample_sizes.iter().for_each(|&size| b.u32(size));
        });
        if self.end > u64::from(u32::MAX) {
            b.full(b"co64", 0, 0, |b| {
                b.u32(frames);
                self.sample_offsets.iter().for_each(|&offset| b.u64(offset));
            });
        } else {
            b.full(b"stco", 0, 0, |b| {
                b.u32(frames);
                self.sample_offsets.iter().for_each(|&offset| b.u32(offset as u32));
            });
        }
    }
}

/// The `avcC` body: profile and level from the SPS (at least 4 bytes), 4-byte NAL lengths, one
/// SPS and one PPS.
fn avc_configuration(b: &mut Boxes, parameter_sets: &ParameterSets) {
    let ParameterSets { sps, pps } = parameter_sets;
    b.u8(1);
    b.bytes(&sps[1..4]); // profile, its constraints, level
    b.u8(0xfc | 3);
    b.u8(0xe0 | 1);
    b.u16(sps.len() as u16);
    b.bytes(sps);
    b.u8(1);
    b.u16(pps.len() as u16);
    b.bytes(pps);
}

/// ISO boxes being written into memory.
#[derive(Default)]
struct Boxes(Vec<u8>);

impl Boxes {
    /// A box of type `kind` whose body `body` writes.
    fn add(&mut self, kind: &[u8; 4], body: impl FnOnce(&mut Self)) {
        let start = self.0.len();
        self.u32(0);
        self.bytes(kind);
        body(self);
        let size = (self.0.len() - start) as u32;
        self.0[start..start + 4].copy_from_slice(&size.to_be_bytes());
    }

    /// A full box: a box whose body starts with a version and 24 bits of flags.
    fn full(&mut self, kind: &[u8; 4], version: u8, flags: u32, body: impl FnOnce(&mut Self)) {
        self.add(kind, |b| {
            b.u32(u32::from(version) << 24 | flags);
            body(b);
        });
    }

    /// The unit transformation matrix of `mvhd` and `tkhd` (16.16 and 2.30 fixed point).
    fn identity_matrix(&mut self) {
        for value in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] {
            self.u32(value);
        }
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    fn zeros(&mut self, count: usize) {
        self.0.resize(self.0.len() + count, 0);
    }

    fn u8(&mut self, value: u8) {
        self.0.push(value);
    }

    fn u16(&mut self, value: u16) {
        self.bytes(&value.to_be_bytes());
    }

    fn u32(&mut self, value: u32) {
        self.bytes(&value.to_be_bytes());
    }

    fn u64(&mut self, value: u64) {
        self.bytes(&value.to_be_bytes());
    }
}
