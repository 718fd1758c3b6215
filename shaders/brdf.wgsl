// The metallic-roughness BRDF's microfacet terms (glTF 2.0 Appendix B), shared by the lit
// mesh (mesh.wgsl) and the environment's prefiltering (environment.wgsl), which prepend it.

const PI: f32 = 3.14159265;

// The GGX (Trowbridge-Reitz) distribution for `alpha` (roughness²).
fn ggx_distribution(n_dot_h: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let f = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * f * f);
}

// Height-correlated Smith visibility, G / (4 n·l n·v).
fn smith_visibility(n_dot_l: f32, n_dot_v: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let ggxv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    let ggxl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    let sum = ggxv + ggxl;
    return select(0.0, 0.5 / sum, sum > 0.0);
}

// KHR_materials_anisotropy's stretched GGX (Kulla and Conty 2017, as three.js r187's
// D_GGX_Anisotropic and V_GGX_SmithCorrelated_Anisotropic write it): the distribution times the
// visibility for roughness `at` along the tangent and `ab` along the bitangent, from the half
// vector's and the light's and view's components in the tangent frame (t·h, b·h, n·h and so
// on). The visibility is not held under 1, as the Sample Viewer holds it: that dimmed a lit
// anisotropic sphere's highlight towards its outline (0.4 of the 1.5 levels a turned one read
// darker than three.js's).
fn anisotropic_specular(
    at: f32,
    ab: f32,
    tbn_h: vec3<f32>,
    tbn_l: vec3<f32>,
    tbn_v: vec3<f32>,
) -> f32 {
    let a2 = at * ab;
    let f = vec3<f32>(ab * tbn_h.x, at * tbn_h.y, a2 * tbn_h.z);
    let w2 = a2 / dot(f, f);
    let distribution = a2 * w2 * w2 / PI;
    let ggxv = tbn_l.z * length(vec3<f32>(at * tbn_v.x, ab * tbn_v.y, tbn_v.z));
    let ggxl = tbn_v.z * length(vec3<f32>(at * tbn_l.x, ab * tbn_l.y, tbn_l.z));
    let visibility = 0.5 / max(ggxv + ggxl, 1e-6);
    return distribution * visibility;
}

// The sheen's microfacet distribution ("Charlie", Estevez and Kulla 2017).
fn charlie_distribution(n_dot_h: f32, roughness: f32) -> f32 {
    let inverse_alpha = 1.0 / max(roughness * roughness, 1e-4);
    let sin2 = max(1.0 - n_dot_h * n_dot_h, 0.0078125);
    return (2.0 + inverse_alpha) * pow(sin2, inverse_alpha * 0.5) / (2.0 * PI);
}

// The sheen's visibility term (Neubelt and Pettineo 2013), as three.js and Filament use it.
fn neubelt_visibility(n_dot_l: f32, n_dot_v: f32) -> f32 {
    return clamp(1.0 / (4.0 * (n_dot_l + n_dot_v - n_dot_l * n_dot_v)), 0.0, 1.0);
}

// The sheen's directional albedo: the share of the light arriving from all around that it
// reflects towards a direction at `n_dot_v` to the normal, as three.js r187's IBLSheenBRDF fits
// the Charlie sheen integrated over the hemisphere. It lights the sheen by the environment and
// dims what lies under the sheen by as much (`sheenEnergyComp`). The fit's roughness is the
// sheen's own (not squared). With an earlier fit and a fixed dimming of 0.157, a sheen sphere
// read 4-16 levels darker than three.js's under its room.
fn sheen_albedo(n_dot_v: f32, roughness: f32) -> f32 {
    let r = clamp(roughness, 0.0, 1.0);
    let inverse = 1.0 / (r + 0.1);
    let a = -1.9362 + 1.0678 * r + 0.4573 * r * r - 0.8469 * inverse;
    let b = -0.6014 + 0.5538 * r - 0.4670 * r * r - 0.1255 * inverse;
    return clamp(exp(a * clamp(n_dot_v, 0.0, 1.0) + b), 0.0, 1.0);
}
