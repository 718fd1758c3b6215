//! The AppStream metainfo (`share/metainfo/ID.metainfo.xml`) that software centres (GNOME
//! Software, KDE Discover) show: name, summary, description, screenshot, licences, content
//! rating, the media types rigscope opens, and the releases, read from CHANGELOG.md's
//! `## [VERSION] - DATE` headings so that they cannot disagree with it.

use super::desktop_files::{DESKTOP_ID, model_mime_types};

/// The component's reverse-DNS id, from where the project lives.
pub const COMPONENT_ID: &str = "io.github.rigscope.rigscope";
const CHANGELOG: &str = include_str!("../../CHANGELOG.md");
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
/// The window's screenshot in the repository, as software centres fetch it.
const SCREENSHOT: &str = "docs/screenshots/viewer.png";

/// The metainfo file's contents.
pub fn metainfo() -> String {
    let mediatypes: String = model_mime_types()
        .iter()
        .map(|mime| format!("    <mediatype>{mime}</mediatype>\n"))
        .collect();
    let releases: String = releases()
        .iter()
        .map(|(version, date)| format!("    <release version=\"{version}\" date=\"{date}\"/>\n"))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<component type="desktop-application">
  <id>{COMPONENT_ID}</id>
  <metadata_license>CC0-1.0</metadata_license>
  <project_license>MIT OR Apache-2.0</project_license>
  <name>rigscope</name>
  <summary>Look at skinned, animated 3D models and inspect their rigs</summary>
  <description>
    <p>
      rigscope opens glTF, GLB, VRM, FBX, OBJ and Doom 3 MD5 models and plays their
      animations, with the tools a technical artist needs to check a rig and an animator to
      preview a clip.
    </p>
    <ul>
      <li>Clips, cross-fades, additive layers, joint masks and IK, skinned on the GPU or the CPU</li>
      <li>Rig views: skeleton, joint axes, skin weights, bind pose and problems a lint finds</li>
      <li>Physically based materials with glTF's material extensions (glass, clear coat, sheen, thin films) and image-based lighting</li>
      <li>Headless commands for thumbnails, contact sheets, MP4 and GIF videos, and checks in CI</li>
    </ul>
  </description>
  <launchable type="desktop-id">{DESKTOP_ID}</launchable>
  <url type="homepage">{REPOSITORY}</url>
  <url type="bugtracker">{REPOSITORY}/issues</url>
  <developer_name>The rigscope developers</developer_name>
  <screenshots>
    <screenshot type="default">
      <caption>The built-in demo rig playing a clip, with the side panel and the timeline</caption>
      <image>{REPOSITORY}/raw/main/{SCREENSHOT}</image>
    </screenshot>
  </screenshots>
  <content_rating type="oars-1.1"/>
  <provides>
    <binary>rigscope</binary>
{mediatypes}  </provides>
  <releases>
{releases}  </releases>
</component>
"#
    )
}

/// The released versions and their dates, newest first, as CHANGELOG.md heads them:
/// `## [0.1.0] - 2026-11-26`.
fn releases() -> Vec<(&'static str, &'static str)> {
    CHANGELOG
        .lines()
        .filter_map(|line| line.strip_prefix("## ["))
        .filter_map(|rest| rest.split_once("] - "))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_release_is_this_version_and_each_has_a_date() {
        let releases = releases();
        assert_eq!(releases.first().map(|r| r.0), Some(env!("CARGO_PKG_VERSION")));
        for (version, date) in releases {
            let parts: Vec<&str> = date.split('-').collect();
            assert!(
                parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok()),
                "{version}: {date}"
            );
        }
    }

    #[test]
    fn the_screenshot_is_in_the_repository() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SCREENSHOT);
        let (width, height) = image::image_dimensions(&path).unwrap();
        assert!(width >= 1024 && height >= 576, "{width}x{height}");
        assert!(metainfo().contains(&format!("/raw/main/{SCREENSHOT}</image>")));
    }
}
