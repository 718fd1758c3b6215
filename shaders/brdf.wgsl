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
