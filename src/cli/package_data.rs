//! `rigscope package-data --out-dir DIR`: everything a package installs under `/usr/share`
//! besides the binary, written below `DIR`: the desktop files (`desktop_files`), the AppStream
//! metainfo, a manual page per command and the bash, zsh and fish completions. `cargo deb`
//! takes them from `target/package-data` (Cargo.toml, `tools/deb/build`); other packagers can
//! do the same.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use super::desktop_files::desktop_files;
use super::metainfo::{COMPONENT_ID, metainfo};
use super::shell_docs;

pub fn run(out_dir: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut files = desktop_files("rigscope")?;
    files.push((format!("metainfo/{COMPONENT_ID}.metainfo.xml"), metainfo().into_bytes()));
    for (shell, relative) in [
        (clap_complete::Shell::Bash, "bash-completion/completions/rigscope"),
        (clap_complete::Shell::Zsh, "zsh/vendor-completions/_rigscope"),
        (clap_complete::Shell::Fish, "fish/vendor_completions.d/rigscope.fish"),
    ] {
        let mut script = Vec::new();
        shell_docs::completions(shell, &mut script);
        files.push((relative.to_owned(), script));
    }
    for (relative, contents) in &files {
        let path = out_dir.join(relative);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        }
        std::fs::write(&path, contents).with_context(|| format!("cannot write {}", path.display()))?;
    }
    shell_docs::man(Some(&out_dir.join("man/man1")), out)?;
    writeln!(
        out,
        "wrote {} files and the manual pages into {}",
        files.len(),
        out_dir.display()
    )?;
    Ok(())
}
