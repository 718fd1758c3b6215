//! The files that make a Linux desktop open models with rigscope and show their thumbnails,
//! below a `share` directory: the application entry, its icon (SVG and PNGs drawn from it), the
//! MIME package and the thumbnailer entry. `install-desktop` writes them for a user or the
//! machine, `package-data` for a package; both from here, so they cannot drift apart.

use anyhow::Context;

use crate::asset::format::{FBX_MAGIC, FORMATS, Format, GLB_MAGIC, model_formats};

pub const DESKTOP_ID: &str = "rigscope.desktop";
const ICON: &str = include_str!("../../assets/rigscope.svg");
/// The PNG sizes of the icon, for desktops and software centres that do not draw SVG.
pub const ICON_SIZES: [u32; 8] = [16, 24, 32, 48, 64, 128, 256, 512];

/// Each file, by its path below `share`, with its contents; `exe` is the program the entries
/// run (a path, or a name found on `PATH`).
pub fn desktop_files(exe: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut files = vec![
        (
            "applications/rigscope.desktop".to_owned(),
            desktop_entry(exe).into_bytes(),
        ),
        (
            "icons/hicolor/scalable/apps/rigscope.svg".to_owned(),
            ICON.as_bytes().to_vec(),
        ),
        ("mime/packages/rigscope.xml".to_owned(), mime_package().into_bytes()),
        (
            "thumbnailers/rigscope.thumbnailer".to_owned(),
            thumbnailer_entry(exe).into_bytes(),
        ),
    ];
    for size in ICON_SIZES {
        files.push((
            format!("icons/hicolor/{size}x{size}/apps/rigscope.png"),
            icon_png(size)?,
        ));
    }
    Ok(files)
}

/// The icon drawn at `size` pixels square, as a PNG.
fn icon_png(size: u32) -> anyhow::Result<Vec<u8>> {
    let tree = resvg::usvg::Tree::from_str(ICON, &resvg::usvg::Options::default())
        .context("the built-in icon is not valid SVG")?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size, size).context("an icon size of 0")?;
    let scale = size as f32 / tree.size().width();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().context("cannot encode the icon as PNG")
}

/// The MIME types rigscope opens (and makes thumbnails of): the model formats.
pub fn model_mime_types() -> Vec<&'static str> {
    model_formats().map(|f| f.mime_type).collect()
}

/// The shared-mime-info package: every format rigscope reads, by extension, GLB also by its
/// magic.
fn mime_package() -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n",
    );
    for info in &FORMATS {
        xml += &format!("  <mime-type type=\"{}\">\n", info.mime_type);
        xml += &format!("    <comment>{}</comment>\n", info.description);
        match info.format {
            Format::GltfBinary => {
                let magic = String::from_utf8_lossy(GLB_MAGIC);
                xml += &format!(
                    "    <magic priority=\"60\">\n      <match type=\"string\" offset=\"0\" value=\"{magic}\"/>\n    </magic>\n"
                );
            }
            Format::GltfJson => xml += "    <sub-class-of type=\"application/json\"/>\n",
            Format::Vrm | Format::VrmAnimation => xml += "    <sub-class-of type=\"model/gltf-binary\"/>\n",
            Format::Md5Mesh | Format::Md5Anim | Format::Obj => xml += "    <sub-class-of type=\"text/plain\"/>\n",
            Format::Fbx => {
                let magic = String::from_utf8_lossy(FBX_MAGIC);
                xml += &format!(
                    "    <magic priority=\"60\">\n      <match type=\"string\" offset=\"0\" value=\"{magic}\"/>\n    </magic>\n"
                );
            }
        }
        xml += &format!("    <glob pattern=\"*.{}\"/>\n  </mime-type>\n", info.extension);
    }
    xml + "</mime-info>\n"
}

/// An argument of an Exec line (Desktop Entry spec, "The Exec key"): quoted when it holds a
/// reserved character, with `"`, `` ` ``, `$` and `\` escaped by a backslash inside the quotes,
/// and that backslash doubled because the whole value is unescaped as a string first; a
/// literal `%` doubled.
fn exec_argument(text: &str) -> String {
    let text = text.replace('%', "%%");
    if !text.chars().any(|c| c.is_whitespace() || RESERVED.contains(c)) {
        return text;
    }
    let mut quoted = String::from('"');
    for c in text.chars() {
        match c {
            // Escaped for the quotes (`\\`), then each backslash doubled for the string.
            '\\' => quoted.push_str(r"\\\\"),
            '"' | '`' | '$' => {
                quoted.push_str(r"\\");
                quoted.push(c);
            }
            _ => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Characters that make an Exec argument need quotes.
const RESERVED: &str = r#""'\><~|&;$*?#()`"#;

/// A plain string value (TryExec): backslashes escaped, nothing else.
fn string_value(text: &str) -> String {
    text.replace('\\', r"\\")
}

fn desktop_entry(exe: &str) -> String {
    format!(
        "[Desktop Entry]
Type=Application
Version=1.4
Name=rigscope
GenericName=Rigged Model Viewer
Comment=Look at skinned, animated 3D models and inspect their rigs
TryExec={exe}
Exec={exec} %f
Icon=rigscope
Terminal=false
Categories=Graphics;3DGraphics;Viewer;
MimeType={types};
Keywords=glTF;GLB;MD5;skeleton;skin;animation;rig;
",
        exe = string_value(exe),
        exec = exec_argument(exe),
        types = model_mime_types().join(";"),
    )
}

fn thumbnailer_entry(exe: &str) -> String {
    format!(
        "[Thumbnailer Entry]
TryExec={exe}
Exec={exec} thumbnail %i -o %o --size %s
MimeType={types};
",
        exe = string_value(exe),
        exec = exec_argument(exe),
        types = model_mime_types().join(";"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_arguments_are_quoted_and_escaped_as_the_spec_says() {
        assert_eq!(exec_argument("/usr/bin/rigscope"), "/usr/bin/rigscope");
        assert_eq!(exec_argument("/opt/my tools/rigscope"), r#""/opt/my tools/rigscope""#);
        // `\$` inside the quotes, written `\\$` because the value is unescaped first.
        assert_eq!(exec_argument("/opt/$x/rig"), r#""/opt/\\$x/rig""#);
        assert_eq!(exec_argument(r"/opt/a\b"), r#""/opt/a\\\\b""#);
        assert_eq!(exec_argument("/opt/100%/rig"), "/opt/100%%/rig");
        assert_eq!(string_value(r"/opt/a\b 100%"), r"/opt/a\\b 100%");
    }

    #[test]
    fn the_png_icons_are_the_svg_drawn_at_each_size() {
        let files = desktop_files("rigscope").unwrap();
        for size in ICON_SIZES {
            let name = format!("icons/hicolor/{size}x{size}/apps/rigscope.png");
            let (_, png) = files.iter().find(|(n, _)| *n == name).unwrap();
            let icon = image::load_from_memory(png).unwrap().to_rgba8();
            assert_eq!(icon.dimensions(), (size, size));
            // The rounded square's dark fill in the middle of an edge, clear at the corner.
            let edge = icon.get_pixel(size / 2, size * 6 / 128 + 1);
            assert!(edge[3] > 200 && edge[0] < 60, "{size}: {edge:?}");
            assert_eq!(icon.get_pixel(0, 0)[3], 0, "{size}");
        }
    }
}
