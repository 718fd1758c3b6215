//! VRMC_materials_mtoon 1.0's factors (`MToon`); its textures are read with the other
//! extensions' (`material_layers::load`). A value out of its range is a warning, and the
//! specification's default is used.

use glam::Vec3;
use serde::Deserialize;
use serde_json::Value;

use crate::asset::mtoon::{MToon, OutlineWidthMode};

pub const EXTENSION: &str = "VRMC_materials_mtoon";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonMToon {
    transparent_with_z_write: Option<bool>,
    render_queue_offset_number: Option<f64>,
    shade_color_factor: Option<Value>,
    shading_shift_factor: Option<f32>,
    shading_shift_texture: Option<JsonScale>,
    shading_toony_factor: Option<f32>,
    gi_equalization_factor: Option<f32>,
    matcap_factor: Option<Value>,
    parametric_rim_color_factor: Option<Value>,
    rim_lighting_mix_factor: Option<f32>,
    parametric_rim_fresnel_power_factor: Option<f32>,
    parametric_rim_lift_factor: Option<f32>,
    outline_width_mode: Option<String>,
    outline_width_factor: Option<f32>,
    outline_color_factor: Option<Value>,
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
    let defaults = MToon::default();
    let mut fields = Fields { at, warnings };
    let queue = json.render_queue_offset_number.unwrap_or(0.0);
    let render_queue_offset = if queue.fract() == 0.0 && (-9.0..=9.0).contains(&queue) {
        queue as i32
    } else {
        fields.out_of_range("renderQueueOffsetNumber", queue, "a whole number from -9 to 9", 0.0);
        0
    };
    let outline_width_mode = match json.outline_width_mode.as_deref() {
        None | Some("none") => OutlineWidthMode::None,
        Some("worldCoordinates") => OutlineWidthMode::World,
        Some("screenCoordinates") => OutlineWidthMode::Screen,
        Some(other) => {
            fields.warnings.push(format!(
                "{at}/outlineWidthMode: '{other}' is not none, worldCoordinates or screenCoordinates (no outline drawn)"
            ));
            OutlineWidthMode::None
        }
    };
    let any = f32::NEG_INFINITY..=f32::INFINITY;
    Some(MToon {
        transparent_with_z_write: json.transparent_with_z_write.unwrap_or(false),
        render_queue_offset,
        shade_color: fields.colour("shadeColorFactor", json.shade_color_factor, defaults.shade_color),
        shading_shift: fields.number("shadingShiftFactor", json.shading_shift_factor, any.clone(), 0.0),
        shading_shift_texture_scale: fields.number(
            "shadingShiftTexture/scale",
            json.shading_shift_texture.and_then(|t| t.scale),
            any.clone(),
            1.0,
        ),
        shading_toony: fields.number("shadingToonyFactor", json.shading_toony_factor, 0.0..=1.0, 0.9),
        gi_equalization: fields.number("giEqualizationFactor", json.gi_equalization_factor, 0.0..=1.0, 0.9),
        matcap: fields.colour("matcapFactor", json.matcap_factor, defaults.matcap),
        parametric_rim_color: fields.colour(
            "parametricRimColorFactor",
            json.parametric_rim_color_factor,
            defaults.parametric_rim_color,
        ),
        parametric_rim_fresnel_power: fields.number(
            "parametricRimFresnelPowerFactor",
            json.parametric_rim_fresnel_power_factor,
            0.0..=f32::INFINITY,
            defaults.parametric_rim_fresnel_power,
        ),
        parametric_rim_lift: fields.number(
            "parametricRimLiftFactor",
            json.parametric_rim_lift_factor,
            any.clone(),
            0.0,
        ),
        rim_lighting_mix: fields.number("rimLightingMixFactor", json.rim_lighting_mix_factor, 0.0..=1.0, 1.0),
        outline_width_mode,
        outline_width: fields.number(
            "outlineWidthFactor",
            json.outline_width_factor,
            0.0..=f32::INFINITY,
            0.0,
        ),
        outline_color: fields.colour("outlineColorFactor", json.outline_color_factor, defaults.outline_color),
        outline_lighting_mix: fields.number(
            "outlineLightingMixFactor",
            json.outline_lighting_mix_factor,
            0.0..=1.0,
            1.0,
        ),
        uv_scroll_x: fields.number(
            "uvAnimationScrollXSpeedFactor",
            json.uv_animation_scroll_x_speed_factor,
            any.clone(),
            0.0,
        ),
        uv_scroll_y: fields.number(
            "uvAnimationScrollYSpeedFactor",
            json.uv_animation_scroll_y_speed_factor,
            any.clone(),
            0.0,
        ),
        uv_rotation: fields.number(
            "uvAnimationRotationSpeedFactor",
            json.uv_animation_rotation_speed_factor,
            any,
            0.0,
        ),
    })
}

/// Reads fields of the object at `at`, warning about each value out of its range.
struct Fields<'a> {
    at: &'a str,
    warnings: &'a mut Vec<String>,
}

impl Fields<'_> {
    fn out_of_range(&mut self, property: &str, value: impl std::fmt::Debug, range: &str, default: f32) {
        self.warnings.push(format!(
            "{}/{property}: {value:?} is not {range} ({default} used)",
            self.at
        ));
    }

    /// `value` where it is a finite number in `range`, the default where absent.
    fn number(
        &mut self,
        property: &str,
        value: Option<f32>,
        range: std::ops::RangeInclusive<f32>,
        default: f32,
    ) -> f32 {
        match value {
            None => default,
            Some(value) if value.is_finite() && range.contains(&value) => value,
            Some(value) => {
                let wanted = match (range.start().is_finite(), range.end().is_finite()) {
                    (true, true) => format!("a number from {} to {}", range.start(), range.end()),
                    (true, false) => format!("a number of {} or more", range.start()),
                    _ => "a finite number".to_owned(),
                };
                self.out_of_range(property, value, &wanted, default);
                default
            }
        }
    }

    /// A linear RGB colour of three numbers from 0 to 1, the default where absent.
    fn colour(&mut self, property: &str, value: Option<Value>, default: Vec3) -> Vec3 {
        let Some(value) = value else {
            return default;
        };
        let colour = serde_json::from_value::<[f32; 3]>(value.clone()).ok().map(Vec3::from);
        match colour {
            Some(colour) if colour.is_finite() && colour.min_element() >= 0.0 && colour.max_element() <= 1.0 => colour,
            _ => {
                self.warnings.push(format!(
                    "{}/{property}: {value} is not a colour of three numbers from 0 to 1 ({default} used)",
                    self.at
                ));
                default
            }
        }
    }
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
