//! `install-desktop` and `uninstall-desktop` against a temporary XDG data and config home: the
//! entries validate, the MIME database learns the types, a double-click would open rigscope,
//! and uninstalling removes exactly what was installed. `package-data` writes what the Debian
//! package installs, and each file validates (tools/deb/check installs the package itself).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn rigscope(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .output()
        .unwrap()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn tool(name: &str) -> String {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .unwrap();
    assert!(
        found.status.success(),
        "{name} is missing (Debian: desktop-file-utils, shared-mime-info; .ci/run installs them)"
    );
    String::from_utf8(found.stdout).unwrap().trim().to_owned()
}

#[test]
fn install_validates_registers_the_types_and_uninstall_removes_it_all() {
    let home = common::temp_dir("desktop");
    // Something of the user's that must survive: another application and its default.
    let config = home.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let user_mimeapps = "[Default Applications]\nmodel/gltf-binary=blender.desktop;\n";
    std::fs::write(config.join("mimeapps.list"), user_mimeapps).unwrap();
    let other_app = home.join("data/applications/other.desktop");
    std::fs::create_dir_all(other_app.parent().unwrap()).unwrap();
    std::fs::write(
        &other_app,
        "[Desktop Entry]\nType=Application\nName=Other\nExec=other\n",
    )
    .unwrap();
    let before = files_under(&home);

    let installed = rigscope(&home, &["install-desktop", "--user"]);
    let log = String::from_utf8_lossy(&installed.stdout);
    assert!(
        installed.status.success(),
        "{}",
        String::from_utf8_lossy(&installed.stderr)
    );
    let data = home.join("data");
    let desktop = data.join("applications/rigscope.desktop");
    let validate = Command::new(tool("desktop-file-validate"))
        .arg(&desktop)
        .output()
        .unwrap();
    assert!(
        validate.status.success() && validate.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&validate.stdout)
    );
    let entry = std::fs::read_to_string(&desktop).unwrap();
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_rigscope")).unwrap();
    assert!(entry.contains(&format!("Exec={} %f", exe.display())), "{entry}");
    assert!(
        entry.contains(
            "MimeType=model/gltf-binary;model/gltf+json;model/x-vrm;model/x-vrm-animation;model/x-md5mesh;application/vnd.autodesk.fbx;model/obj;\n"
        )
    );
    let thumbnailer = std::fs::read_to_string(data.join("thumbnailers/rigscope.thumbnailer")).unwrap();
    assert!(thumbnailer.starts_with("[Thumbnailer Entry]\n"));
    assert!(thumbnailer.contains(&format!("Exec={} thumbnail %i -o %o --size %s", exe.display())));
    assert!(data.join("icons/hicolor/scalable/apps/rigscope.svg").is_file());
    assert_eq!(
        image::image_dimensions(data.join("icons/hicolor/48x48/apps/rigscope.png")).unwrap(),
        (48, 48)
    );
    // The MIME database was rebuilt with the new types.
    tool("update-mime-database");
    let globs = std::fs::read_to_string(data.join("mime/globs2")).unwrap();
    for glob in [
        "model/gltf-binary:*.glb",
        "model/gltf+json:*.gltf",
        "model/x-vrm:*.vrm",
        "model/x-vrm-animation:*.vrma",
        "model/x-md5mesh:*.md5mesh",
        "model/x-md5anim:*.md5anim",
        "application/vnd.autodesk.fbx:*.fbx",
        "model/obj:*.obj",
    ] {
        assert!(globs.contains(glob), "{glob} in {globs}");
    }
    assert!(log.contains("ran update-mime-database"), "{log}");
    // Double-clicking: rigscope is the default where the user had none; Blender keeps .glb.
    let mimeapps = std::fs::read_to_string(config.join("mimeapps.list")).unwrap();
    assert!(mimeapps.contains("model/gltf-binary=blender.desktop;"));
    assert!(mimeapps.contains("model/gltf+json=rigscope.desktop;"), "{mimeapps}");
    assert!(mimeapps.contains("model/x-md5mesh=rigscope.desktop;"), "{mimeapps}");
    assert!(mimeapps.contains("model/x-vrm=rigscope.desktop;"), "{mimeapps}");
    assert!(
        !mimeapps.contains("md5anim"),
        "an animation alone is not opened: {mimeapps}"
    );

    // The thumbnailer's command line works as a file manager would call it.
    let thumbnail = home.join("thumb.png");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let made = rigscope(
        &home,
        &[
            "thumbnail",
            fox.to_str().unwrap(),
            "-o",
            thumbnail.to_str().unwrap(),
            "--size",
            "128",
        ],
    );
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    assert_eq!(image::image_dimensions(&thumbnail).unwrap(), (128, 128));
    std::fs::remove_file(&thumbnail).unwrap();

    let both = rigscope(&home, &["install-desktop", "--user", "--system"]);
    assert_eq!(both.status.code(), Some(2), "--user and --system exclude each other");
    let removed = rigscope(&home, &["uninstall-desktop", "--user"]);
    assert!(removed.status.success(), "{}", String::from_utf8_lossy(&removed.stderr));
    assert_eq!(
        std::fs::read_to_string(config.join("mimeapps.list")).unwrap(),
        user_mimeapps
    );
    assert!(other_app.is_file());
    // What is left beyond the files there before: only the rebuilt databases, which no
    // longer know rigscope or its types, and the cache the thumbnails filled (a cache, which
    // uninstalling leaves as packages leave users' caches).
    let cache = home.join(".cache/rigscope");
    let after = files_under(&home);
    for file in after.iter().filter(|f| !before.contains(f) && !f.starts_with(&cache)) {
        let in_database = file.starts_with(data.join("mime")) || file.ends_with("applications/mimeinfo.cache");
        assert!(in_database, "{} was left behind", file.display());
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        assert!(
            !text.contains("rigscope") && !text.contains("md5mesh"),
            "{} still names rigscope",
            file.display()
        );
    }
    assert!(!data.join("rigscope").exists() && !data.join("thumbnailers").exists() && !data.join("icons").exists());
    let again = rigscope(&home, &["uninstall-desktop"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing to uninstall"));
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn package_data_is_what_a_package_installs_and_each_file_validates() {
    let dir = common::temp_dir("package-data");
    let out = dir.join("share");
    let ran = rigscope(&dir, &["package-data", "--out-dir", out.to_str().unwrap()]);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let files: Vec<String> = files_under(&out)
        .iter()
        .map(|f| f.strip_prefix(&out).unwrap().display().to_string())
        .collect();
    for expected in [
        "applications/rigscope.desktop",
        "icons/hicolor/scalable/apps/rigscope.svg",
        "icons/hicolor/16x16/apps/rigscope.png",
        "icons/hicolor/512x512/apps/rigscope.png",
        "mime/packages/rigscope.xml",
        "thumbnailers/rigscope.thumbnailer",
        "metainfo/io.github.rigscope.rigscope.metainfo.xml",
        "man/man1/rigscope.1",
        "man/man1/rigscope-video.1",
        "bash-completion/completions/rigscope",
        "zsh/vendor-completions/_rigscope",
        "fish/vendor_completions.d/rigscope.fish",
    ] {
        assert!(files.iter().any(|f| f == expected), "{expected} in {files:?}");
    }
    // The package's entries run `rigscope` from PATH (/usr/bin), not this test build.
    let entry = std::fs::read_to_string(out.join("applications/rigscope.desktop")).unwrap();
    assert!(
        entry.contains("\nExec=rigscope %f\n") && entry.contains("TryExec=rigscope\n"),
        "{entry}"
    );
    let thumbnailer = std::fs::read_to_string(out.join("thumbnailers/rigscope.thumbnailer")).unwrap();
    assert!(
        thumbnailer.contains("Exec=rigscope thumbnail %i -o %o --size %s"),
        "{thumbnailer}"
    );
    for (validator, file) in [
        (vec![tool("desktop-file-validate")], "applications/rigscope.desktop"),
        (
            vec![tool("appstreamcli"), "validate".into(), "--no-net".into()],
            "metainfo/io.github.rigscope.rigscope.metainfo.xml",
        ),
    ] {
        let checked = Command::new(&validator[0])
            .args(&validator[1..])
            .arg(out.join(file))
            .output()
            .unwrap();
        assert!(
            checked.status.success(),
            "{file}: {}{}",
            String::from_utf8_lossy(&checked.stdout),
            String::from_utf8_lossy(&checked.stderr)
        );
    }
    let metainfo = std::fs::read_to_string(out.join("metainfo/io.github.rigscope.rigscope.metainfo.xml")).unwrap();
    for part in [
        "<launchable type=\"desktop-id\">rigscope.desktop</launchable>",
        "<mediatype>model/gltf-binary</mediatype>",
        "<mediatype>application/vnd.autodesk.fbx</mediatype>",
        &format!("<release version=\"{}\"", env!("CARGO_PKG_VERSION")),
        "<content_rating type=\"oars-1.1\"/>",
    ] {
        assert!(metainfo.contains(part), "{part} in {metainfo}");
    }
    let video_page = std::fs::read_to_string(out.join("man/man1/rigscope-video.1")).unwrap();
    assert!(video_page.contains("fps"), "{video_page}");
    let bash = std::fs::read_to_string(out.join("bash-completion/completions/rigscope")).unwrap();
    assert!(bash.contains("package-data") && bash.contains("--turntable"));
    std::fs::remove_dir_all(&dir).unwrap();
}
