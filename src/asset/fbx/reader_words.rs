//! ufbx's warnings and errors in words that name something the user can find: the mesh or
//! object a warning is about and how many times it happened, and where in the reader a
//! refused file stopped (ufbx's error stack, recorded because `.cargo/config.toml` compiles
//! it with `UFBX_ENABLE_ERROR_STACK`).

use super::unread::object_names;

/// One of ufbx's warnings as a sentence: what happened, how often, and to which object.
pub fn warning(reader: &str, warning: &ufbx::Warning, scene: &ufbx::Scene) -> String {
    let what = what_happened(warning.type_, warning.count, &warning.description);
    match subject(warning.element_id, scene).or_else(|| only_mesh(warning.type_, scene)) {
        Some(subject) => format!("the {reader} reader {what} ({subject})"),
        None => format!("the {reader} reader {what}"),
    }
}

/// What a warning of `kind` says happened `count` times; ufbx's `description` is kept where
/// it names a file, an array or a version.
fn what_happened(kind: ufbx::WarningType, count: usize, description: &str) -> String {
    let times = |one: &str, many: &str| match count.max(1) {
        1 => one.to_string(),
        n => format!("{n} {many}"),
    };
    match kind {
        ufbx::WarningType::IndexClamped => format!(
            "clamped {} that pointed past the end of the vertex data (positions, normals, UVs or points) to its last entry: what uses them may look stretched",
            times("an index", "indices")
        ),
        ufbx::WarningType::MissingExternalFile => format!("could not open a file it names ({description})"),
        ufbx::WarningType::ImplicitMtl => {
            format!("found no material library named, and read the one named as the file ({description})")
        }
        ufbx::WarningType::TruncatedArray => format!("read an array that is shorter than it says ({description})"),
        ufbx::WarningType::MissingGeometryData => format!("found geometry without its data ({description})"),
        ufbx::WarningType::DuplicateConnection => {
            format!("ignored {}", times("a repeated connection", "repeated connections"))
        }
        ufbx::WarningType::BadVertexWAttribute => format!("ignored a W array of the wrong size ({description})"),
        ufbx::WarningType::MissingPolygonMapping => {
            format!("ignored vertex data mapped in a way it does not know ({description})")
        }
        ufbx::WarningType::UnsupportedVersion => {
            format!("read a version it does not know as best it could ({description})")
        }
        ufbx::WarningType::BadUnicode => format!(
            "replaced bytes that are not UTF-8 in {}",
            times("a name or string", "names or strings")
        ),
        ufbx::WarningType::BadBase64Content => "skipped embedded content that is not valid base64".to_string(),
        ufbx::WarningType::BadElementConnectedToRoot => {
            "ignored something that is not a node but hangs from the scene's root".to_string()
        }
        ufbx::WarningType::DuplicateObjectId => format!(
            "found {} with the ID of another: connections to them may go to the wrong one",
            times("an object", "objects")
        ),
        ufbx::WarningType::EmptyFaceRemoved => format!("removed {} without vertices", times("a face", "faces")),
        ufbx::WarningType::UnknownObjDirective => format!(
            "skipped {} starting with a keyword it does not know",
            times("a line", "lines")
        ),
    }
}

/// `mesh 'Body'`, `material 'Skin'`, ... for the element a warning names (ufbx marks "none"
/// with all bits set, and element ids it could not resolve with the top bit).
fn subject(element_id: u32, scene: &ufbx::Scene) -> Option<String> {
    let element = scene.elements.get(usize::try_from(element_id).ok()?)?;
    let kind = match element.type_ {
        ufbx::ElementType::Mesh => "mesh",
        ufbx::ElementType::LineCurve => "line",
        ufbx::ElementType::Node => "node",
        ufbx::ElementType::Material => "material",
        ufbx::ElementType::Texture => "texture",
        ufbx::ElementType::SkinDeformer | ufbx::ElementType::SkinCluster => "skin",
        ufbx::ElementType::BlendShape | ufbx::ElementType::BlendChannel => "blend shape",
        ufbx::ElementType::AnimStack | ufbx::ElementType::AnimLayer | ufbx::ElementType::AnimCurve => "animation",
        _ => "object",
    };
    // Named as `Model::meshes` names a mesh: its own name, else its nodes'.
    let name = match element.name.is_empty() {
        false => format!("'{}'", element.name),
        true => object_names(element),
    };
    Some(format!("{kind} {name}"))
}

/// The file's one mesh, for a warning about mesh data that names no element (the OBJ reader
/// tags none): with several meshes it could be about any of them.
fn only_mesh(kind: ufbx::WarningType, scene: &ufbx::Scene) -> Option<String> {
    let about_meshes = matches!(
        kind,
        ufbx::WarningType::IndexClamped
            | ufbx::WarningType::EmptyFaceRemoved
            | ufbx::WarningType::TruncatedArray
            | ufbx::WarningType::MissingGeometryData
    );
    match (about_meshes, scene.meshes.as_ref()) {
        (true, [mesh]) => subject(mesh.element.element_id, scene),
        _ => None,
    }
}

/// One frame of ufbx's error stack: the reader's function, its line in ufbx.c and the check
/// that failed there.
pub struct Frame<'a> {
    pub function: &'a str,
    pub line: u32,
    pub check: &'a str,
}

/// Where the reader stopped, innermost first: "in read mesh (ufbx.c line 12936:
/// `data->size == count`), called from read geometry ← read objects"; empty without frames.
pub fn where_it_stopped(frames: &[Frame]) -> String {
    let Some((innermost, callers)) = frames.split_first() else {
        return String::new();
    };
    let plain = |function: &str| function.trim_start_matches("ufbxi_").replace('_', " ");
    let mut words = format!("in {} (ufbx.c line {}", plain(innermost.function), innermost.line);
    if !innermost.check.is_empty() {
        words.push_str(&format!(": `{}`", innermost.check));
    }
    words.push(')');
    let callers: Vec<String> = (callers.iter())
        .map(|f| plain(f.function))
        .filter(|f| !f.is_empty())
        .collect();
    if !callers.is_empty() {
        words.push_str(&format!(", called from {}", callers.join(" ← ")));
    }
    words
}

/// The frames of `error`'s stack (none where ufbx was compiled without it).
pub fn frames(error: &ufbx::Error) -> Vec<Frame<'_>> {
    let recorded = (error.stack_size as usize).min(error.stack.len());
    (error.stack[..recorded].iter())
        .map(|frame| Frame {
            function: &frame.function,
            line: frame.source_line,
            check: &frame.description,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_reads_innermost_first_in_plain_names() {
        let frames = [
            Frame {
                function: "ufbxi_read_mesh",
                line: 12936,
                check: "data->size == count",
            },
            Frame {
                function: "ufbxi_read_geometry",
                line: 13010,
                check: "ufbxi_read_mesh(uc, node)",
            },
            Frame {
                function: "ufbxi_read_objects",
                line: 14000,
                check: "",
            },
        ];
        assert_eq!(
            where_it_stopped(&frames),
            "in read mesh (ufbx.c line 12936: `data->size == count`), called from read geometry ← read objects"
        );
        assert_eq!(where_it_stopped(&frames[2..]), "in read objects (ufbx.c line 14000)");
        assert_eq!(where_it_stopped(&[]), "");
    }

    #[test]
    fn every_warning_says_what_happened_and_how_often() {
        use ufbx::WarningType as Kind;
        let said = |kind, count| what_happened(kind, count, "x.mtl");
        let expected = [
            (
                Kind::IndexClamped,
                1,
                "clamped an index that pointed past the end of the vertex data (positions, normals, UVs or points) to its last entry: what uses them may look stretched",
            ),
            (Kind::MissingExternalFile, 1, "could not open a file it names (x.mtl)"),
            (
                Kind::ImplicitMtl,
                1,
                "found no material library named, and read the one named as the file (x.mtl)",
            ),
            (
                Kind::TruncatedArray,
                1,
                "read an array that is shorter than it says (x.mtl)",
            ),
            (Kind::MissingGeometryData, 1, "found geometry without its data (x.mtl)"),
            (Kind::DuplicateConnection, 3, "ignored 3 repeated connections"),
            (
                Kind::BadVertexWAttribute,
                1,
                "ignored a W array of the wrong size (x.mtl)",
            ),
            (
                Kind::MissingPolygonMapping,
                1,
                "ignored vertex data mapped in a way it does not know (x.mtl)",
            ),
            (
                Kind::UnsupportedVersion,
                1,
                "read a version it does not know as best it could (x.mtl)",
            ),
            (
                Kind::BadUnicode,
                2,
                "replaced bytes that are not UTF-8 in 2 names or strings",
            ),
            (
                Kind::BadBase64Content,
                1,
                "skipped embedded content that is not valid base64",
            ),
            (
                Kind::BadElementConnectedToRoot,
                1,
                "ignored something that is not a node but hangs from the scene's root",
            ),
            (
                Kind::DuplicateObjectId,
                1,
                "found an object with the ID of another: connections to them may go to the wrong one",
            ),
            (Kind::EmptyFaceRemoved, 4, "removed 4 faces without vertices"),
            (
                Kind::UnknownObjDirective,
                1,
                "skipped a line starting with a keyword it does not know",
            ),
        ];
        for (kind, count, words) in expected {
            assert_eq!(said(kind, count), words, "{kind:?}");
        }
        assert_eq!(
            said(Kind::IndexClamped, 12),
            said(Kind::IndexClamped, 1).replace("an index", "12 indices")
        );
    }
}

#[cfg(test)]
mod loaded {
    use std::path::Path;

    use crate::asset::format::Format;

    fn load(name: &str, text: &str, format: Format) -> Result<crate::asset::Model, String> {
        super::super::load(Path::new(name), text.as_bytes(), format).map_err(|error| error.to_string())
    }

    #[test]
    fn clamped_indices_and_unknown_lines_are_counted_and_named() {
        let obj = "o Tri\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\nf 1 7 3\nbevel on\nbevel off\n";
        let model = load("tri.obj", obj, Format::Obj).unwrap_or_else(|error| panic!("{error}"));
        let said = |line: &str| model.warnings.iter().any(|w| w == line);
        assert!(
            said(
                "the OBJ reader clamped 2 indices that pointed past the end of the vertex data (positions, normals, UVs or points) to its last entry: what uses them may look stretched (mesh 'Tri')"
            ),
            "{:?}",
            model.warnings
        );
        assert!(
            said("the OBJ reader skipped 2 lines starting with a keyword it does not know"),
            "{:?}",
            model.warnings
        );
    }

    #[test]
    fn a_refused_file_says_where_the_reader_stopped() {
        // A NURBS curve without its order: ufbx refuses it with no description of its own.
        let broken = super::super::unread::tests::NURBS_ONLY.replacen("\t\tOrder: 4\n", "", 1);
        let Err(error) = load("broken.fbx", &broken, Format::Fbx) else {
            panic!("a curve without its order is refused");
        };
        assert!(error.contains("ufbx could not read it (Failed to load)"), "{error}");
        assert!(
            error.contains(": the reader stopped in read nurbs curve (ufbx.c line ")
                && error.contains("called from read object"),
            "{error}"
        );
    }
}
