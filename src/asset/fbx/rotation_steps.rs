//! A node's animated rotation worked out from its rotation curves alone, the same to the bit as
//! ufbx's evaluation of the node's transform.
//!
//! Refining a clip (`anim`) evaluates each node's rotation thousands of times (200,000 times for
//! a Mixamo dancer), and ufbx's `evaluate_transform` finds the node's transform properties by
//! name each time, merges them with the animated ones, evaluates every animated one and turns
//! the pre- and post-rotation from Euler angles into quaternions again. Where the stack has one
//! layer, which animates the node's `Lcl Rotation` and no other rotation property, the rotation
//! is the curves' Euler angles turned into a quaternion between turns that stay put. This takes
//! them once, and then does ufbx's steps (`ufbxi_get_rotation`: each turn skipped where it is
//! none, a turn onto no rotation taken as it is, else multiplied on the left) with ufbx's own
//! functions, so the result is ufbx's to the bit; any other node is evaluated by ufbx
//! (`RotationSteps::of` says `None`).

use ufbx::{PropFlags, Quat, RotationOrder, Vec3};

/// How to work out one node's rotation in one stack from its `Lcl Rotation` curves.
pub struct RotationSteps<'a> {
    /// The curves of the node's `Lcl Rotation` in the stack's one layer.
    curves: &'a ufbx::AnimValue,
    /// The order the curves' Euler angles turn in.
    order: RotationOrder,
    /// Turns before the curves' rotation (ufbx's adjustment, the post-rotation's inverse), in
    /// the order ufbx applies them; `None` where ufbx skips one (an identity turn).
    before: [Option<Quat>; 2],
    /// Turns after it (the pre-rotation, ufbx's adjustment), likewise.
    after: [Option<Quat>; 2],
}

impl<'a> RotationSteps<'a> {
    /// The steps for `node` in `anim`, or `None` where ufbx's evaluation could take a value
    /// from elsewhere than the node's own rotation curves and properties: several layers, an
    /// override, a connected or animated pre-rotation, post-rotation or rotation order, a
    /// mirrored axis, a property without a value.
    pub fn of(anim: &'a ufbx::Anim, node: &'a ufbx::Node) -> Option<Self> {
        let layers: &[ufbx::Ref<ufbx::AnimLayer>] = &anim.layers;
        let [layer] = layers else {
            return None;
        };
        if node.is_root || !anim.prop_overrides.is_empty() || node.adjust_mirror_axis != ufbx::MirrorAxis::None {
            return None;
        }
        let animated = layer.find_anim_props(&node.element);
        let held_names = ["PreRotation", "PostRotation", "RotationOrder"];
        if (animated.iter()).any(|p| held_names.iter().any(|&name| p.prop_name == name)) {
            return None;
        }
        let curves = &animated.iter().find(|p| p.prop_name == "Lcl Rotation")?.anim_value;
        // ufbx evaluates only the node's own properties flagged as animated, and reads the
        // others through the node's chain of defaults, skipping those without a value.
        let rotation = node.element.props.props.iter().find(|p| p.name == "Lcl Rotation")?;
        let unusual = PropFlags::CONNECTED | PropFlags::OVERRIDDEN | PropFlags::NO_VALUE;
        if !rotation.flags.has_any(PropFlags::ANIMATED) || rotation.flags.has_any(unusual) {
            return None;
        }
        let held = |name: &str| -> Option<Vec3> {
            match node.element.props.find_prop(name) {
                None => Some(Vec3 { x: 0.0, y: 0.0, z: 0.0 }),
                Some(prop) if prop.flags.has_any(unusual | PropFlags::ANIMATED) => None,
                Some(prop) => Some(Vec3 {
                    x: prop.value_vec4.x,
                    y: prop.value_vec4.y,
                    z: prop.value_vec4.z,
                }),
            }
        };
        let (pre, post) = (held("PreRotation")?, held("PostRotation")?);
        // The order is the node's (`rotation_order`, read through the same chain) unless animated.
        let order_prop = node.element.props.find_prop("RotationOrder");
        if order_prop.is_some_and(|p| p.flags.has_any(unusual | PropFlags::ANIMATED)) {
            return None;
        }
        let adjusted = |q: Quat| node.has_adjust_transform.then_some(q).filter(|&q| !is_identity(q));
        let euler = |v: Vec3| (!is_zero(v)).then(|| ufbx::euler_to_quat(v, RotationOrder::Xyz));
        let (before, order, after) = match node.use_rotation_space {
            true => {
                let inverse_post = euler(post).map(|q| Quat {
                    x: -q.x,
                    y: -q.y,
                    z: -q.z,
                    w: q.w,
                });
                let before = [adjusted(node.adjust_post_rotation), inverse_post];
                (
                    before,
                    node.rotation_order,
                    [euler(pre), adjusted(node.adjust_pre_rotation)],
                )
            }
            false => (
                [adjusted(node.adjust_post_rotation), None],
                RotationOrder::Xyz,
                [None, adjusted(node.adjust_pre_rotation)],
            ),
        };
        Some(Self {
            curves,
            order,
            before,
            after,
        })
    }

    /// The node's rotation at `time` (the file's time), as ufbx evaluates it.
    pub fn at(&self, time: f64) -> Quat {
        let angles = ufbx::evaluate_anim_value_vec3(self.curves, time);
        let turn = (!is_zero(angles)).then(|| ufbx::euler_to_quat(angles, self.order));
        let turns = self.before.iter().chain([&turn]).chain(self.after.iter());
        turns.flatten().fold(IDENTITY, |rotation, &q| turned(rotation, q))
    }
}

const IDENTITY: Quat = Quat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

/// `rotation` turned by `q`, as ufbx's `ufbxi_mul_rotate` does: a rotation whose `w` is 1
/// counts as none and is replaced.
fn turned(rotation: Quat, q: Quat) -> Quat {
    if rotation.w != 1.0 {
        ufbx::quat_mul(q, rotation)
    } else {
        q
    }
}

fn is_zero(v: Vec3) -> bool {
    v.x == 0.0 && v.y == 0.0 && v.z == 0.0
}

fn is_identity(q: Quat) -> bool {
    q.x == 0.0 && q.y == 0.0 && q.z == 0.0 && q.w == 1.0
}
