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

// KHR_materials_anisotropy's stretched GGX (Kulla and Conty 2017, as the glTF Sample Viewer
// writes it): the distribution times the visibility for roughness `at` along the tangent and
// `ab` along the bitangent, from the half vector's and the light's and view's components in
// the tangent frame (t·h, b·h, n·h and so on).
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
    let visibility = clamp(0.5 / (ggxv + ggxl), 0.0, 1.0);
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

// The sheen's directional albedo under an environment, fitted (three.js's IBLSheenBRDF, times
// π: `environment_irradiance` is already over π).
fn sheen_environment_brdf(n_dot_v: f32, roughness: f32) -> f32 {
    let r2 = roughness * roughness;
    let smooth_sheen = roughness < 0.25;
    let a = select(-8.48 * r2 + 14.3 * roughness - 9.95, -339.2 * r2 + 161.4 * roughness - 25.9, smooth_sheen);
    let b = select(1.97 * r2 - 3.27 * roughness + 0.72, 44.0 * r2 - 23.7 * roughness + 3.26, smooth_sheen);
    let dg = exp(a * n_dot_v + b) + select(0.1 * (roughness - 0.25), 0.0, smooth_sheen);
    return clamp(dg, 0.0, PI);
}
