//! VRMC_materials_mtoon 1.0's factors (`MToon`); its textures are read with the other
//! extensions' (`material_layers::load`). A value out of its range is a warning, and the
//! specification's default is used, as for the KHR_materials_* extensions.

use glam::Vec3;
use serde::Deserialize;
use serde_json::Value;

use super::factor_ranges::{at_least_or, colour_or, finite_or, unit_or};
use crate::asset::mtoon::{MToon, OutlineWidthMode};

pub const EXTENSION: &str = "VRMC_materials_mtoon";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonMToon {
    transparent_with_z_write: Option<bool>,
    render_queue_offset_number: Option<f64>,
    shade_color_factor: Option<[f32; 3]>,
    shading_shift_factor: Option<f32>,
    shading_shift_texture: Option<JsonScale>,
    shading_toony_factor: Option<f32>,
    gi_equalization_factor: Option<f32>,
    matcap_factor: Option<[f32; 3]>,
    parametric_rim_color_factor: Option<[f32; 3]>,
    rim_lighting_mix_factor: Option<f32>,
    parametric_rim_fresnel_power_factor: Option<f32>,
    parametric_rim_lift_factor: Option<f32>,
    outline_width_mode: Option<String>,
    outline_width_factor: Option<f32>,
    outline_color_factor: Option<[f32; 3]>,
    outline_lighting_mix_factor: Option<f32>,
    uv_animation_scroll_x_speed_factor: Option<f32>,
    uv_animation_scroll_y_speed_factor: Option<f32>,
    uv_animation_rotation_speed_factor: Option<f32>,
}

#[derive(Deserialize)]
struct JsonScale {
    scale: Option<f32>,
}

/// The material's MToon from its `VRMC_materials_mtoon` object `json`; `at` is that object's
/// pointer. None (with a warning) where it is not an object of MToon's fields.
pub fn load(json: &Value, at: &str, warnings: &mut Vec<String>) -> Option<MToon> {
    let json = match JsonMToon::deserialize(json) {
        Ok(json) => json,
        Err(error) => {
            warnings.push(format!("{at}: {error} (drawn as a plain material)"));
            return None;
        }
    };
    let d = MToon::default();
    let queue = json.render_queue_offset_number.unwrap_or(0.0);
    let render_queue_offset = if queue.fract() == 0.0 && (-9.0..=9.0).contains(&queue) {
        queue as i32
    } else {
        warnings.push(format!(
            "{at}/renderQueueOffsetNumber: {queue} is not a whole number from -9 to 9 (0 used)"
        ));
        0
    };
    let outline_width_mode = match json.outline_width_mode.as_deref() {
        None | Some("none") => OutlineWidthMode::None,
        Some("worldCoordinates") => OutlineWidthMode::World,
        Some("screenCoordinates") => OutlineWidthMode::Screen,
        Some(other) => {
            warnings.push(format!(
                "{at}/outlineWidthMode: '{other}' is not none, worldCoordinates or screenCoordinates (no outline drawn)"
            ));
            OutlineWidthMode::None
        }
    };
    // Each factor as the file gives it, else its default; then checked against its range.
    let mut unit = |value: Option<f32>, default: f32, property| {
        unit_or(value.unwrap_or(default), default, (at, property), warnings)
    };
    let shading_toony = unit(json.shading_toony_factor, d.shading_toony, "shadingToonyFactor");
    let gi_equalization = unit(json.gi_equalization_factor, d.gi_equalization, "giEqualizationFactor");
    let rim_lighting_mix = unit(json.rim_lighting_mix_factor, d.rim_lighting_mix, "rimLightingMixFactor");
    let outline_lighting_mix = unit(
        json.outline_lighting_mix_factor,
        d.outline_lighting_mix,
        "outlineLightingMixFactor",
    );
    let mut colour = |value: Option<[f32; 3]>, default: Vec3, property| match value {
        Some(rgb) => colour_or(rgb, default, 1.0, (at, property), warnings),
        None => default,
    };
    let shade_color = colour(json.shade_color_factor, d.shade_color, "shadeColorFactor");
    let matcap = colour(json.matcap_factor, d.matcap, "matcapFactor");
    let parametric_rim_color = colour(
        json.parametric_rim_color_factor,
        d.parametric_rim_color,
        "parametricRimColorFactor",
    );
    let outline_color = colour(json.outline_color_factor, d.outline_color, "outlineColorFactor");
    let mut positive = |value: Option<f32>, default: f32, property| {
        at_least_or(value.unwrap_or(default), 0.0, default, (at, property), warnings)
    };
    let parametric_rim_fresnel_power = positive(
        json.parametric_rim_fresnel_power_factor,
        d.parametric_rim_fresnel_power,
        "parametricRimFresnelPowerFactor",
    );
    let outline_width = positive(json.outline_width_factor, d.outline_width, "outlineWidthFactor");
    let mut finite = |value: Option<f32>, default: f32, property| {
        finite_or(value.unwrap_or(default), default, (at, property), warnings)
    };
    Some(MToon {
        transparent_with_z_write: json.transparent_with_z_write.unwrap_or(false),
        render_queue_offset,
        shade_color,
        shading_shift: finite(json.shading_shift_factor, d.shading_shift, "shadingShiftFactor"),
        shading_shift_texture_scale: finite(
            json.shading_shift_texture.and_then(|t| t.scale),
            d.shading_shift_texture_scale,
            "shadingShiftTexture/scale",
        ),
        shading_toony,
        gi_equalization,
        matcap,
        parametric_rim_color,
        parametric_rim_fresnel_power,
        parametric_rim_lift: finite(
            json.parametric_rim_lift_factor,
            d.parametric_rim_lift,
            "parametricRimLiftFactor",
        ),
        rim_lighting_mix,
        outline_width_mode,
        outline_width,
        outline_color,
        outline_lighting_mix,
        uv_scroll_x: finite(
            json.uv_animation_scroll_x_speed_factor,
            d.uv_scroll_x,
            "uvAnimationScrollXSpeedFactor",
        ),
        uv_scroll_y: finite(
            json.uv_animation_scroll_y_speed_factor,
            d.uv_scroll_y,
            "uvAnimationScrollYSpeedFactor",
        ),
        uv_rotation: finite(
            json.uv_animation_rotation_speed_factor,
            d.uv_rotation,
            "uvAnimationRotationSpeedFactor",
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn factors_are_read_and_values_out_of_range_are_warnings_with_the_default_used() {
        let mut warnings = Vec::new();
        let read = load(
            &json!({
                "specVersion": "1.0", "shadeColorFactor": [0.1, 0.2, 0.3], "shadingToonyFactor": 0.5,
                "outlineWidthMode": "screenCoordinates", "outlineWidthFactor": 0.02,
                "renderQueueOffsetNumber": 3, "transparentWithZWrite": true, "uvAnimationScrollYSpeedFactor": -2
            }),
            "/materials/0/extensions/VRMC_materials_mtoon",
            &mut warnings,
        )
        .unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(read.shade_color, Vec3::new(0.1, 0.2, 0.3));
        assert_eq!((read.shading_toony, read.outline_width), (0.5, 0.02));
        assert_eq!(read.outline_width_mode, OutlineWidthMode::Screen);
        assert_eq!((read.render_queue_offset, read.blend_queue()), (3, 3));
        assert_eq!(read.uv_scroll_y, -2.0);
        assert_eq!(
            read.parametric_rim_fresnel_power, 5.0,
            "the specification text's default"
        );

        let read = load(
            &json!({
                "specVersion": "1.0", "shadeColorFactor": [2, 0, 0], "shadingToonyFactor": 1.5,
                "outlineWidthMode": "thick", "outlineWidthFactor": -1, "renderQueueOffsetNumber": 40
            }),
            "/materials/3/extensions/VRMC_materials_mtoon",
            &mut warnings,
        )
        .unwrap();
        assert_eq!(read, MToon::default());
        let all = warnings.join("\n");
        for property in [
            "shadeColorFactor",
            "shadingToonyFactor",
            "outlineWidthMode",
            "outlineWidthFactor",
            "renderQueueOffsetNumber",
        ] {
            assert!(
                all.contains(&format!("/materials/3/extensions/VRMC_materials_mtoon/{property}")),
                "{all}"
            );
        }
        assert!(
            load(
                &json!([1, 2]),
                "/materials/4/extensions/VRMC_materials_mtoon",
                &mut warnings
            )
            .is_none()
        );
    }
}
