//! A quick hash for the maps that gather a file's vertices (FxHash's step): the standard one's
//! resistance to chosen keys buys nothing for a file's own indices and values, and cost a third
//! of an OBJ's reading time and about half an FBX mesh's gathering (`perf` of a Mixamo dancer's
//! `render`: SipHash 2.4% of the samples, the meshes' gathering 4.9%).

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: each word mixed in with one rotation, one exclusive or and one multiplication.
#[derive(Default)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap`'s hasher builder for `FastHasher`.
pub type Fast = BuildHasherDefault<FastHasher>;
