//! Geometry the file holds that rigscope does not draw: NURBS curves and surfaces (trimmed
//! or not) and lines. ufbx reads them, but only meshes become primitives, so without a word a
//! file of NURBS opens as a line of joints.

/// One warning per object of a kind that is not drawn, naming it by its node (what the
/// authoring program's outliner shows) and saying what it is.
pub fn unread_geometry(scene: &ufbx::Scene, warnings: &mut Vec<String>) {
    let curves = scene.nurbs_curves.iter().map(|c| (&c.element, "a NURBS curve"));
    let surfaces = scene.nurbs_surfaces.iter().map(|s| (&s.element, "a NURBS surface"));
    let trimmed = (scene.nurbs_trim_surfaces.iter()).map(|s| (&s.element, "a trimmed NURBS surface"));
    let lines = scene.line_curves.iter().map(|c| (&c.element, "a line curve"));
    for (element, kind) in curves.chain(surfaces).chain(trimmed).chain(lines) {
        warnings.push(format!(
            "FBX: {} is {kind}, which rigscope does not draw",
            object_names(element)
        ));
    }
}

/// `'Node'` (or `'A', 'B'` for an element several nodes draw), else the element's own name.
pub fn object_names(element: &ufbx::Element) -> String {
    let nodes: Vec<String> = (element.instances.iter())
        .filter(|node| !node.element.name.is_empty())
        .map(|node| format!("'{}'", node.element.name))
        .collect();
    match (nodes.is_empty(), element.name.is_empty()) {
        (false, _) => nodes.join(", "),
        (true, false) => format!("'{}'", element.name),
        (true, true) => format!("an unnamed object (#{})", element.element_id),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::path::Path;

    use crate::asset::format::Format;

    /// An ASCII FBX holding a NURBS curve 'Curve01', a NURBS surface 'Sheet', a trimmed
    /// one 'Trimmed' and a line 'Wire'
    /// (whose last point index is past its two points), and no mesh.
    pub const NURBS_ONLY: &str = r#"; FBX 7.4.0 project file
FBXHeaderExtension:  {
	FBXHeaderVersion: 1003
	FBXVersion: 7400
}
Objects:  {
	Model: 1000, "Model::Curve01", "NurbsCurve" {
		Version: 232
	}
	Geometry: 2000, "Geometry::Curve01", "NurbsCurve" {
		Order: 4
		Dimension: 3
		Form: "Open"
		Points: *16 {
			a: 0.0,0.0,0.0,1.0,1.0,0.0,0.0,1.0,2.0,1.0,0.0,1.0,3.0,1.0,0.0,1.0
		}
		KnotVector: *8 {
			a: 0.0,0.0,0.0,0.0,1.0,1.0,1.0,1.0
		}
	}
	Model: 1001, "Model::Sheet", "NurbsSurface" {
		Version: 232
	}
	Geometry: 2001, "Geometry::Sheet", "NurbsSurface" {
		NurbsSurfaceOrder: 2,2
		Dimensions: 2,2
		Step: 4,4
		Form: "Open", "Open"
		Points: *16 {
			a: 0.0,0.0,0.0,1.0,1.0,0.0,0.0,1.0,0.0,1.0,0.0,1.0,1.0,1.0,0.0,1.0
		}
		KnotVectorU: *4 {
			a: 0.0,0.0,1.0,1.0
		}
		KnotVectorV: *4 {
			a: 0.0,0.0,1.0,1.0
		}
	}
	Model: 1003, "Model::Trimmed", "TrimNurbsSurface" {
		Version: 232
	}
	Geometry: 2003, "Geometry::Trimmed", "TrimNurbsSurface" {
	}
	Model: 1002, "Model::Wire", "Line" {
		Version: 232
	}
	Geometry: 2002, "Geometry::Wire", "Line" {
		Points: *6 {
			a: 0.0,0.0,0.0,1.0,0.0,0.0
		}
		PointsIndex: *3 {
			a: 0,1,-6
		}
	}
}
Connections:  {
	C: "OO",1000,0
	C: "OO",2000,1000
	C: "OO",1001,0
	C: "OO",2001,1001
	C: "OO",1002,0
	C: "OO",2002,1002
	C: "OO",1003,0
	C: "OO",2003,1003
}
"#;

    #[test]
    fn nurbs_curves_surfaces_and_lines_are_named_as_not_drawn() {
        let model = super::super::load(Path::new("nurbs.fbx"), NURBS_ONLY.as_bytes(), Format::Fbx)
            .unwrap_or_else(|error| panic!("{error}"));
        assert!(model.meshes.is_empty(), "nothing is drawn");
        let said = |line: &str| model.warnings.iter().any(|w| w == line);
        assert!(
            said("FBX: 'Curve01' is a NURBS curve, which rigscope does not draw"),
            "{:?}",
            model.warnings
        );
        assert!(
            said("FBX: 'Sheet' is a NURBS surface, which rigscope does not draw"),
            "{:?}",
            model.warnings
        );
        assert!(
            said("FBX: 'Wire' is a line curve, which rigscope does not draw"),
            "{:?}",
            model.warnings
        );
        // A warning ufbx tags with an element names it.
        assert!(
            said(
                "the FBX reader clamped an index that pointed past the end of the vertex data (positions, normals, UVs or points) to its last entry: what uses them may look stretched (line 'Wire')"
            ),
            "{:?}",
            model.warnings
        );
    }
}
