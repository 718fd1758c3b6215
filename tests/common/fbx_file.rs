//! FBX files written by tests, in both encodings: a tree of nodes written as ASCII text (what
//! Maya and MotionBuilder write on request) or as binary (what every exporter writes by
//! default). `skinned_bar` builds a small rig through every part of the format the loader reads;
//! `only_objects` cuts it down (to a motion-only file, say).

/// One property of an FBX node.
#[derive(Clone)]
pub enum Prop {
    Int(i32),
    Long(i64),
    Double(f64),
    Str(String),
    /// An object's name with its class, `Model::Root`: `Root\0\x01Model` in binary files.
    Named(&'static str, String),
    Doubles(Vec<f64>),
    Floats(Vec<f32>),
    Ints(Vec<i32>),
    Longs(Vec<i64>),
}

/// One FBX node: a name, its properties and its children.
#[derive(Clone)]
pub struct Node {
    pub name: &'static str,
    pub props: Vec<Prop>,
    pub children: Vec<Node>,
}

impl Node {
    /// Whether this is the object with id `id`.
    pub fn is_object(&self, id: i64) -> bool {
        matches!(self.props.first(), Some(Prop::Long(n)) if *n == id)
    }

    /// The first child named `name`.
    pub fn child_mut(&mut self, name: &str) -> &mut Node {
        let found = self.children.iter_mut().find(|c| c.name == name);
        found.unwrap_or_else(|| panic!("no {name} under {}", self.name))
    }
}

/// The object with id `id` among a file's `Objects`.
pub fn object_mut(nodes: &mut [Node], id: i64) -> &mut Node {
    let objects = nodes.iter_mut().find(|n| n.name == "Objects").expect("Objects");
    let found = objects.children.iter_mut().find(|o| o.is_object(id));
    found.unwrap_or_else(|| panic!("no object {id}"))
}

pub fn node(name: &'static str, props: Vec<Prop>, children: Vec<Node>) -> Node {
    Node { name, props, children }
}

/// A leaf node with one property.
pub fn leaf(name: &'static str, prop: Prop) -> Node {
    node(name, vec![prop], Vec::new())
}

pub fn s(text: &str) -> Prop {
    Prop::Str(text.to_string())
}

/// `P: "name", "type", "", "A", values...`, a property of `Properties70`.
pub fn p(name: &str, kind: &str, values: &[f64]) -> Node {
    let mut props = vec![s(name), s(kind), s(""), s("A")];
    props.extend(values.iter().map(|&v| Prop::Double(v)));
    node("P", props, Vec::new())
}

pub fn properties(list: Vec<Node>) -> Node {
    node("Properties70", Vec::new(), list)
}

/// One FBX second, in KTime ticks.
pub const SECOND: i64 = 46_186_158_000;

/// The FBX version both encodings declare.
const VERSION: i32 = 7400;

pub fn to_ascii(nodes: &[Node]) -> String {
    let mut out = String::from("; FBX 7.4.0 project file\n");
    for node in nodes {
        write_ascii(node, 0, &mut out);
    }
    out
}

fn write_ascii(node: &Node, depth: usize, out: &mut String) {
    let indent = "\t".repeat(depth);
    let array = |values: Vec<String>| format!("*{} {{\n{indent}\ta: {}\n{indent}}}", values.len(), values.join(","));
    let props: Vec<String> = (node.props.iter())
        .map(|prop| match prop {
            Prop::Int(v) => v.to_string(),
            Prop::Long(v) => v.to_string(),
            Prop::Double(v) => v.to_string(),
            Prop::Str(v) => format!("\"{v}\""),
            Prop::Named(class, name) => format!("\"{class}::{name}\""),
            Prop::Doubles(v) => array(v.iter().map(f64::to_string).collect()),
            Prop::Floats(v) => array(v.iter().map(f32::to_string).collect()),
            Prop::Ints(v) => array(v.iter().map(i32::to_string).collect()),
            Prop::Longs(v) => array(v.iter().map(i64::to_string).collect()),
        })
        .collect();
    out.push_str(&format!("{indent}{}: {}", node.name, props.join(", ")));
    if node.children.is_empty() {
        out.push('\n');
        return;
    }
    out.push_str(" {\n");
    for child in &node.children {
        write_ascii(child, depth + 1, out);
    }
    out.push_str(&format!("{indent}}}\n"));
}

pub fn to_binary(nodes: &[Node]) -> Vec<u8> {
    let mut out = b"Kaydara FBX Binary  \0\x1a\0".to_vec();
    out.extend(VERSION.to_le_bytes());
    for node in nodes {
        write_binary(node, &mut out);
    }
    out.extend([0; 13]); // the top level's end
    out
}

fn write_binary(node: &Node, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend([0; 12]); // end offset, property count and size, filled in below
    out.push(node.name.len() as u8);
    out.extend(node.name.as_bytes());
    let props_start = out.len();
    for prop in &node.props {
        write_prop(prop, out);
    }
    let props_size = (out.len() - props_start) as u32;
    if !node.children.is_empty() {
        for child in &node.children {
            write_binary(child, out);
        }
        out.extend([0; 13]);
    }
    let end = out.len() as u32;
    out[start..start + 4].copy_from_slice(&end.to_le_bytes());
    out[start + 4..start + 8].copy_from_slice(&(node.props.len() as u32).to_le_bytes());
    out[start + 8..start + 12].copy_from_slice(&props_size.to_le_bytes());
}

fn write_prop(prop: &Prop, out: &mut Vec<u8>) {
    let string = |out: &mut Vec<u8>, bytes: &[u8]| {
        out.push(b'S');
        out.extend((bytes.len() as u32).to_le_bytes());
        out.extend(bytes);
    };
    let array = |out: &mut Vec<u8>, kind: u8, count: usize, data: Vec<u8>| {
        out.push(kind);
        out.extend((count as u32).to_le_bytes());
        out.extend(0u32.to_le_bytes()); // not deflated
        out.extend((data.len() as u32).to_le_bytes());
        out.extend(data);
    };
    match prop {
        Prop::Int(v) => {
            out.push(b'I');
            out.extend(v.to_le_bytes());
        }
        Prop::Long(v) => {
            out.push(b'L');
            out.extend(v.to_le_bytes());
        }
        Prop::Double(v) => {
            out.push(b'D');
            out.extend(v.to_le_bytes());
        }
        Prop::Str(v) => string(out, v.as_bytes()),
        Prop::Named(class, name) => string(out, format!("{name}\0\x01{class}").as_bytes()),
        Prop::Doubles(v) => array(out, b'd', v.len(), v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Prop::Floats(v) => array(out, b'f', v.len(), v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Prop::Ints(v) => array(out, b'i', v.len(), v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Prop::Longs(v) => array(out, b'l', v.len(), v.iter().flat_map(|x| x.to_le_bytes()).collect()),
    }
}

/// An animation curve with two keys, at `times`, linear (flag 4) or constant (flag 2).
fn curve(n: i64, times: [i64; 2], values: Vec<f32>, flags: i32) -> Node {
    node(
        "AnimationCurve",
        vec![Prop::Long(n), Prop::Named("AnimCurve", String::new()), s("")],
        vec![
            leaf("Default", Prop::Double(0.0)),
            leaf("KeyVer", Prop::Int(4009)),
            leaf("KeyTime", Prop::Longs(times.to_vec())),
            leaf("KeyValueFloat", Prop::Floats(values)),
            leaf("KeyAttrFlags", Prop::Ints(vec![flags])),
            leaf("KeyAttrDataFloat", Prop::Floats(vec![0.0; 4])),
            leaf("KeyAttrRefCount", Prop::Ints(vec![2])),
        ],
    )
}

fn curve_node(n: i64, name: &str, values: Vec<Node>) -> Node {
    node(
        "AnimationCurveNode",
        vec![Prop::Long(n), Prop::Named("AnimCurveNode", name.to_string()), s("")],
        vec![properties(values)],
    )
}

/// A curve node of a vector property (`T`, `R`, `S`), `value` on each axis where no curve is.
fn xyz_curve_node(n: i64, name: &str, value: f64) -> Node {
    let axis = |name: &str| p(name, "Number", &[value]);
    curve_node(n, name, vec![axis("d|X"), axis("d|Y"), axis("d|Z")])
}

/// A connection of object `child` to object `parent`.
fn oo(child: i64, parent: i64) -> Node {
    node("C", vec![s("OO"), Prop::Long(child), Prop::Long(parent)], Vec::new())
}

/// A connection of object `child` to a property of object `parent`.
fn op(child: i64, parent: i64, property: &str) -> Node {
    node(
        "C",
        vec![s("OP"), Prop::Long(child), Prop::Long(parent), s(property)],
        Vec::new(),
    )
}

/// How the file states its axes and unit.
pub struct Space {
    /// 1 for +Y up (Maya, Mixamo), 2 for +Z up (3ds Max, Blender's own axes).
    pub up_axis: i32,
    /// Centimetres per unit: 1 (the FBX default), 100 for metres.
    pub unit_scale: f64,
}

pub const METRES_Y_UP: Space = Space {
    up_axis: 1,
    unit_scale: 100.0,
};

/// A bar two units tall standing on the origin (x ±0.2, vertices at heights 0, 1 and 2, facing
/// +Z), red, skinned to `Root` (at the origin) and its child `Tip` (at height 1): the bottom row
/// follows Root, the middle row half each, the top row Tip. A blend shape channel `Bulge` moves
/// the middle row 0.5 along +Z. The stack `Bend` turns Tip from 0° to 90° about +Z and the
/// bulge from 0 to 100% in one second, both linearly, and hides the bar from 0.5 s on.
pub fn skinned_bar(space: &Space) -> Vec<Node> {
    let positions = vec![
        -0.2, 0.0, 0.0, 0.2, 0.0, 0.0, -0.2, 1.0, 0.0, 0.2, 1.0, 0.0, -0.2, 2.0, 0.0, 0.2, 2.0, 0.0,
    ];
    let translation = |y: f64| {
        vec![
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, y, 0.0, 1.0,
        ]
    };
    let id = |n: i64| Prop::Long(n);
    let model = |n: i64, name: &str, kind: &str, at: f64| {
        node(
            "Model",
            vec![id(n), Prop::Named("Model", name.to_string()), s(kind)],
            vec![
                leaf("Version", Prop::Int(232)),
                properties(vec![p("Lcl Translation", "Lcl Translation", &[0.0, at, 0.0])]),
            ],
        )
    };
    let cluster = |n: i64, indexes: Vec<i32>, weights: Vec<f64>, bone_height: f64| {
        node(
            "Deformer",
            vec![id(n), Prop::Named("SubDeformer", String::new()), s("Cluster")],
            vec![
                leaf("Version", Prop::Int(100)),
                leaf("Indexes", Prop::Ints(indexes)),
                leaf("Weights", Prop::Doubles(weights)),
                leaf("Transform", Prop::Doubles(translation(-bone_height))),
                leaf("TransformLink", Prop::Doubles(translation(bone_height))),
            ],
        )
    };

    let layer_element = |kind: &str| {
        node(
            "LayerElement",
            Vec::new(),
            vec![leaf("Type", s(kind)), leaf("TypedIndex", Prop::Int(0))],
        )
    };
    let geometry = node(
        "Geometry",
        vec![id(10), Prop::Named("Geometry", "Bar".into()), s("Mesh")],
        vec![
            leaf("Vertices", Prop::Doubles(positions)),
            leaf("PolygonVertexIndex", Prop::Ints(vec![0, 1, 3, -3, 2, 3, 5, -5])),
            leaf("GeometryVersion", Prop::Int(124)),
            node(
                "LayerElementNormal",
                vec![Prop::Int(0)],
                vec![
                    leaf("Version", Prop::Int(102)),
                    leaf("MappingInformationType", s("ByVertice")),
                    leaf("ReferenceInformationType", s("Direct")),
                    leaf("Normals", Prop::Doubles([0.0, 0.0, 1.0].repeat(6))),
                ],
            ),
            node(
                "LayerElementUV",
                vec![Prop::Int(0)],
                vec![
                    leaf("Version", Prop::Int(101)),
                    leaf("Name", s("map1")),
                    leaf("MappingInformationType", s("ByVertice")),
                    leaf("ReferenceInformationType", s("Direct")),
                    leaf(
                        "UV",
                        Prop::Doubles(vec![0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 1.0, 0.5, 0.0, 1.0, 1.0, 1.0]),
                    ),
                ],
            ),
            node(
                "LayerElementMaterial",
                vec![Prop::Int(0)],
                vec![
                    leaf("Version", Prop::Int(101)),
                    leaf("MappingInformationType", s("AllSame")),
                    leaf("ReferenceInformationType", s("IndexToDirect")),
                    leaf("Materials", Prop::Ints(vec![0])),
                ],
            ),
            node(
                "Layer",
                vec![Prop::Int(0)],
                vec![
                    leaf("Version", Prop::Int(100)),
                    layer_element("LayerElementNormal"),
                    layer_element("LayerElementUV"),
                    layer_element("LayerElementMaterial"),
                ],
            ),
        ],
    );
    let shape = node(
        "Geometry",
        vec![id(11), Prop::Named("Geometry", "Bulge".into()), s("Shape")],
        vec![
            leaf("Version", Prop::Int(100)),
            leaf("Indexes", Prop::Ints(vec![2, 3])),
            leaf("Vertices", Prop::Doubles(vec![0.0, 0.0, 0.5, 0.0, 0.0, 0.5])),
        ],
    );
    let global_int = |name: &str, value: i32| p(name, "int", &[value as f64]);
    let (front_axis, front_sign) = if space.up_axis == 2 { (1, -1) } else { (2, 1) };
    vec![
        node(
            "FBXHeaderExtension",
            Vec::new(),
            vec![
                leaf("FBXHeaderVersion", Prop::Int(1003)),
                leaf("FBXVersion", Prop::Int(VERSION)),
                leaf("Creator", s("rigscope tests")),
            ],
        ),
        node(
            "GlobalSettings",
            Vec::new(),
            vec![
                leaf("Version", Prop::Int(1000)),
                properties(vec![
                    global_int("UpAxis", space.up_axis),
                    global_int("UpAxisSign", 1),
                    global_int("FrontAxis", front_axis),
                    global_int("FrontAxisSign", front_sign),
                    global_int("CoordAxis", 0),
                    global_int("CoordAxisSign", 1),
                    p("UnitScaleFactor", "double", &[space.unit_scale]),
                    global_int("TimeMode", 6), // 30 frames per second
                ]),
            ],
        ),
        node(
            "Objects",
            Vec::new(),
            vec![
                geometry,
                shape,
                model(1, "Bar", "Mesh", 0.0),
                model(2, "Root", "LimbNode", 0.0),
                model(3, "Tip", "LimbNode", 1.0),
                node(
                    "Material",
                    vec![id(20), Prop::Named("Material", "Red".into()), s("")],
                    vec![
                        leaf("ShadingModel", s("lambert")),
                        properties(vec![p("DiffuseColor", "Color", &[0.8, 0.1, 0.1])]),
                    ],
                ),
                node(
                    "Deformer",
                    vec![id(30), Prop::Named("Deformer", "Skin".into()), s("Skin")],
                    vec![leaf("Version", Prop::Int(101))],
                ),
                cluster(31, vec![0, 1, 2, 3], vec![1.0, 1.0, 0.5, 0.5], 0.0),
                cluster(32, vec![2, 3, 4, 5], vec![0.5, 0.5, 1.0, 1.0], 1.0),
                node(
                    "Deformer",
                    vec![id(40), Prop::Named("Deformer", "Shapes".into()), s("BlendShape")],
                    vec![leaf("Version", Prop::Int(100))],
                ),
                node(
                    "Deformer",
                    vec![
                        id(41),
                        Prop::Named("SubDeformer", "Bulge".into()),
                        s("BlendShapeChannel"),
                    ],
                    vec![
                        leaf("Version", Prop::Int(100)),
                        leaf("DeformPercent", Prop::Double(0.0)),
                        leaf("FullWeights", Prop::Doubles(vec![100.0])),
                    ],
                ),
                node(
                    "AnimationStack",
                    vec![id(50), Prop::Named("AnimStack", "Bend".into()), s("")],
                    vec![properties(vec![p("LocalStop", "KTime", &[SECOND as f64])])],
                ),
                node(
                    "AnimationLayer",
                    vec![id(51), Prop::Named("AnimLayer", "Base".into()), s("")],
                    Vec::new(),
                ),
                xyz_curve_node(52, "R", 0.0),
                curve(53, [0, SECOND], vec![0.0, 90.0], 4),
                curve_node(54, "DeformPercent", vec![p("d|DeformPercent", "Number", &[0.0])]),
                curve(55, [0, SECOND], vec![0.0, 100.0], 4),
                curve_node(56, "Visibility", vec![p("d|Visibility", "Number", &[1.0])]),
                curve(57, [0, SECOND / 2], vec![1.0, 0.0], 2),
            ],
        ),
        node(
            "Connections",
            Vec::new(),
            vec![
                oo(1, 0),
                oo(2, 0),
                oo(3, 2),
                oo(10, 1),
                oo(20, 1),
                oo(30, 10),
                oo(31, 30),
                oo(32, 30),
                oo(2, 31),
                oo(3, 32),
                oo(40, 10),
                oo(41, 40),
                oo(11, 41),
                oo(51, 50),
                oo(52, 51),
                oo(54, 51),
                op(52, 3, "Lcl Rotation"),
                op(53, 52, "d|Z"),
                op(54, 41, "DeformPercent"),
                op(55, 54, "d|DeformPercent"),
                oo(56, 51),
                op(56, 1, "Visibility"),
                op(57, 56, "d|Visibility"),
            ],
        ),
    ]
}

/// `nodes` with only the objects whose ids are in `keep` (0 is the scene root) and the
/// connections between them: e.g. a rig's joints and animation without its mesh, as Mixamo's
/// "without skin" downloads are.
pub fn only_objects(nodes: &[Node], keep: &[i64]) -> Vec<Node> {
    let id = |prop: Option<&Prop>| match prop {
        Some(Prop::Long(n)) => Some(*n),
        _ => None,
    };
    let kept = |prop: Option<&Prop>| id(prop).is_some_and(|n| n == 0 || keep.contains(&n));
    let mut nodes = nodes.to_vec();
    for section in &mut nodes {
        match section.name {
            "Objects" => section.children.retain(|object| kept(object.props.first())),
            "Connections" => section
                .children
                .retain(|c| kept(c.props.get(1)) && kept(c.props.get(2))),
            _ => {}
        }
    }
    nodes
}

/// The bar of `skinned_bar` as Maya rigs its joints (segment scale compensation): `Tip`
/// does not inherit `Root`'s scale (`InheritType` 2) but sits where it puts it, and the stack
/// `Bend` also grows `Root` from scale 1 to 2 in its second. The stack runs from 1 s to 2 s of
/// the file's time, as a file's later stacks do.
pub fn compensating_bar(space: &Space) -> Vec<Node> {
    let mut nodes = skinned_bar(space);
    for section in &mut nodes {
        match section.name {
            "Objects" => {
                let tip = section.children.iter_mut().find(|o| o.is_object(3)).expect("Tip");
                tip.child_mut("Properties70")
                    .children
                    .push(p("InheritType", "enum", &[2.0]));
                section.children.push(xyz_curve_node(58, "S", 1.0));
                for n in 59..=61 {
                    section.children.push(curve(n, [0, SECOND], vec![1.0, 2.0], 4));
                }
            }
            "Connections" => section.children.extend([
                oo(58, 51),
                op(58, 2, "Lcl Scaling"),
                op(59, 58, "d|X"),
                op(60, 58, "d|Y"),
                op(61, 58, "d|Z"),
            ]),
            _ => {}
        }
    }
    starting_later(nodes)
}

/// `nodes` with their one stack (of a second, from 0) moved to run from 1 s to 2 s of the
/// file's time, as a file's later stacks do: its curves' keys one second later.
pub fn starting_later(mut nodes: Vec<Node>) -> Vec<Node> {
    let objects = nodes.iter_mut().find(|n| n.name == "Objects").expect("Objects");
    for object in &mut objects.children {
        match object.name {
            "AnimationStack" => {
                object.children = vec![properties(vec![
                    p("LocalStart", "KTime", &[SECOND as f64]),
                    p("LocalStop", "KTime", &[2.0 * SECOND as f64]),
                ])]
            }
            "AnimationCurve" => {
                for child in object.children.iter_mut().filter(|c| c.name == "KeyTime") {
                    if let Some(Prop::Longs(times)) = child.props.first_mut() {
                        times.iter_mut().for_each(|t| *t += SECOND);
                    }
                }
            }
            _ => {}
        }
    }
    nodes
}

/// The bar of `skinned_bar` with a scaled, turned `Root`: at rest Root is turned 30° about +Z,
/// and the stack `Bend` also stretches it non-uniformly, from scale (1, 1, 1) to (2, 1, 0.5)
/// in its second, while Tip turns under it (so Tip's world matrix has shear). Tip inherits
/// Root's scale as `inherit_type` says: 0 per axis of its own (RrSs, MotionBuilder's), 1 by
/// matrix product (RSrs, the FBX default), 2 not at all (Rrs, Maya's segment scale
/// compensation).
pub fn stretched_bar(space: &Space, inherit_type: i32) -> Vec<Node> {
    let mut nodes = skinned_bar(space);
    for section in &mut nodes {
        match section.name {
            "Objects" => {
                let root = section.children.iter_mut().find(|o| o.is_object(2)).expect("Root");
                (root.child_mut("Properties70").children).push(p("Lcl Rotation", "Lcl Rotation", &[0.0, 0.0, 30.0]));
                let tip = section.children.iter_mut().find(|o| o.is_object(3)).expect("Tip");
                (tip.child_mut("Properties70").children).push(p("InheritType", "enum", &[inherit_type as f64]));
                section.children.push(xyz_curve_node(58, "S", 1.0));
                section.children.push(curve(59, [0, SECOND], vec![1.0, 2.0], 4));
                section.children.push(curve(60, [0, SECOND], vec![1.0, 0.5], 4));
            }
            "Connections" => section.children.extend([
                oo(58, 51),
                op(58, 2, "Lcl Scaling"),
                op(59, 58, "d|X"),
                op(60, 58, "d|Z"),
            ]),
            _ => {}
        }
    }
    nodes
}
