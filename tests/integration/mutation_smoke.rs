//! A short, deterministic stand-in for the fuzz targets under `fuzz/` that runs on stable in
//! every test run: mutated copies of the validator corpus's models go through what the
//! `pipeline` fuzz target does (load, sample every clip, skin on the CPU by both methods,
//! lint). Nothing may panic, and each input must finish quickly.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use rigscope::asset;

/// Mutated inputs per corpus model, and the seed of the sequence that makes them.
const MUTATIONS_EACH: usize = 12;
const SEED: u64 = 0x5eed_1616;
/// Corpus models larger than this are skipped (their mutations take long and find the same).
const LARGEST_SEED: u64 = 64 << 10;

/// Numbers that make loaders misbehave: huge, negative, not finite as text, the integer limits.
const NUMBERS: [&[u8]; 10] = [
    b"0",
    b"-1",
    b"1e9",
    b"3e38",
    b"1e400",
    b"4294967295",
    b"4294967296",
    b"65536",
    b"5125",
    b"1.5",
];

/// One mutation of `bytes`: flipped bytes, a number replaced, a cut, or a spliced repeat.
fn mutate(bytes: &[u8], random: &mut common::Lcg) -> Vec<u8> {
    let mut out = bytes.to_vec();
    match random.below(4) {
        0 => {
            for _ in 0..1 + random.below(4) {
                let at = random.below(out.len());
                if let Some(byte) = out.get_mut(at) {
                    *byte ^= 1 << random.below(8);
                }
            }
        }
        1 => {
            // Replace the digits of a number (in JSON or MD5 text) with another number.
            let digits: Vec<usize> = (0..out.len()).filter(|&i| out[i].is_ascii_digit()).collect();
            if !digits.is_empty() {
                let start = digits[random.below(digits.len())];
                let end = (start..out.len())
                    .find(|&i| !out[i].is_ascii_digit())
                    .unwrap_or(out.len());
                out.splice(start..end, NUMBERS[random.below(NUMBERS.len())].iter().copied());
            }
        }
        2 => out.truncate(random.below(out.len())),
        _ => {
            let start = random.below(out.len());
            let end = (start + 1 + random.below(64)).min(out.len());
            let at = random.below(out.len());
            let piece = out[start..end].to_vec();
            out.splice(at..at, piece);
        }
    }
    out
}

#[test]
fn mutated_corpus_models_never_panic_or_hang() {
    let mut random = common::Lcg(SEED);
    let mut inputs = 0;
    let mut loaded = 0;
    for model in common::validator_models() {
        if std::fs::metadata(&model.path).unwrap().len() > LARGEST_SEED {
            continue;
        }
        let bytes = std::fs::read(&model.path).unwrap();
        for _ in 0..MUTATIONS_EACH {
            let mutated = mutate(&bytes, &mut random);
            loaded += usize::from(load_and_exercise(&model.path, &mutated, inputs));
            inputs += 1;
        }
    }
    eprintln!("{inputs} mutated inputs, {loaded} loaded");
    assert!(inputs >= 3000, "only {inputs} inputs");
    assert!(loaded > inputs / 10, "only {loaded} of {inputs} mutated inputs loaded");
}

/// Mutated inputs per compressed sample (Draco and meshopt geometry): their decoders see
/// flipped, cut and spliced streams. Fewer than for the corpus, as these files are larger.
const COMPRESSED_MUTATIONS_EACH: usize = 48;
const COMPRESSED_SEEDS: [&str; 4] = [
    "Fox-draco.glb",
    "CesiumMan-draco.glb",
    "Fox-meshopt.glb",
    "Xbot-gltfpack.glb",
];

#[test]
fn mutated_compressed_models_never_panic_or_hang() {
    let mut random = common::Lcg(SEED);
    let mut loaded = 0;
    for (seed, name) in COMPRESSED_SEEDS.iter().enumerate() {
        let path = common::compressed_dir().join(name);
        let bytes = std::fs::read(&path).unwrap();
        for input in 0..COMPRESSED_MUTATIONS_EACH {
            let mutated = mutate(&bytes, &mut random);
            loaded += usize::from(load_and_exercise(
                &path,
                &mutated,
                seed * COMPRESSED_MUTATIONS_EACH + input,
            ));
        }
    }
    let inputs = COMPRESSED_SEEDS.len() * COMPRESSED_MUTATIONS_EACH;
    eprintln!("{inputs} mutated compressed inputs, {loaded} loaded");
    assert!(loaded > 0, "none of {inputs} mutated compressed inputs loaded");
}

/// Mutated inputs per FBX and OBJ seed: ufbx and the FBX loader see cut, flipped and spliced
/// binary records, deflated-size fields, ASCII numbers and OBJ indices.
const FBX_MUTATIONS_EACH: usize = 400;

#[test]
fn mutated_fbx_and_obj_files_never_panic_or_hang() {
    use common::fbx_file;
    let dir = common::temp_dir("mutated-fbx");
    let bar = fbx_file::skinned_bar(&fbx_file::METRES_Y_UP);
    let cube = "mtllib cube.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 1\nvn 0 0 1\n\
                usemtl Red\nf 1/1/1 2/2/1 3/2/1 4/1/1\nf -4 -3 -2\nl 1 2 3\np 4\n";
    std::fs::write(dir.join("cube.mtl"), "newmtl Red\nKd 1 0 0\nd 0.5\n").unwrap();
    let seeds = [
        ("bar.fbx", fbx_file::to_binary(&bar)),
        ("bar-ascii.fbx", fbx_file::to_ascii(&bar).into_bytes()),
        ("cube.obj", cube.as_bytes().to_vec()),
    ];
    let mut random = common::Lcg(SEED);
    let mut loaded = 0;
    for (seed, (name, bytes)) in seeds.iter().enumerate() {
        let path = dir.join(name);
        for input in 0..FBX_MUTATIONS_EACH {
            let mutated = mutate(bytes, &mut random);
            loaded += usize::from(load_and_exercise(&path, &mutated, seed * FBX_MUTATIONS_EACH + input));
        }
    }
    let inputs = seeds.len() * FBX_MUTATIONS_EACH;
    eprintln!("{inputs} mutated FBX and OBJ inputs, {loaded} loaded");
    assert!(loaded > inputs / 10, "only {loaded} of {inputs} mutated inputs loaded");
}

/// Loads `mutated` (a mutation of the file at `path`) and runs the pipeline on it: whether it
/// loaded. Fails the test if anything panics (keeping the input as number `input`) or takes
/// longer than two seconds (on a quiet machine: `timing::within`).
fn load_and_exercise(path: &Path, mutated: &[u8], input: usize) -> bool {
    let start = Instant::now();
    // The original path, so that the buffers and images beside it are found.
    let outcome = std::panic::catch_unwind(|| match asset::load_bytes(path, mutated) {
        Ok(model) => {
            common::pipeline::exercise(&model);
            true
        }
        Err(_) => false,
    });
    let Ok(was_loaded) = outcome else {
        let kept = std::env::temp_dir().join(format!("rigscope-mutation-{input}"));
        std::fs::write(&kept, mutated).unwrap();
        panic!(
            "a mutation of {} panicked; it is kept in {}",
            path.display(),
            kept.display()
        );
    };
    let elapsed = start.elapsed();
    assert!(
        common::timing::within(elapsed, Duration::from_secs(2)),
        "a mutation of {} took {elapsed:?}",
        path.display()
    );
    was_loaded
}
