fn main() {
    for entry in std::env::args().skip(1) {
        match rigscope::asset::load(std::path::Path::new(&entry)) {
            Ok(m) => println!(
                "{entry}: joints {} meshes {} inst {} clips {:?} warnings {:?}",
                m.skeleton.len(),
                m.meshes.len(),
                m.instances.len(),
                m.clips
                    .iter()
                    .map(|c| (c.name().to_string(), c.duration()))
                    .collect::<Vec<_>>(),
                m.warnings
            ),
            Err(e) => println!("ERR {e}"),
        }
    }
}
