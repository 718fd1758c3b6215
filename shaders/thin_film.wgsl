// KHR_materials_iridescence: the Fresnel reflectance of a thin film over the base (Belcour and
// Barla 2017, "A Practical Extension to Microfacet Theory for the Modeling of Varying
// Iridescence"), as the glTF Sample Viewer and three.js evaluate it: the film's two
// interfaces' reflections interfere by the optical path difference, integrated against the
// CIE sensitivity curves (fitted Gaussians) and converted to linear Rec. 709. `PI` comes from
// brdf.wgsl.

fn film_schlick(f0: vec3<f32>, f90: f32, cos_theta: f32) -> vec3<f32> {
    return f0 + (f90 - f0) * pow(clamp(1.0 - cos_theta, 0.0, 1.0), 5.0);
}

fn ior_to_f0(transmitted: vec3<f32>, incident: f32) -> vec3<f32> {
    let r = (transmitted - incident) / (transmitted + incident);
    return r * r;
}

fn f0_to_ior(f0: vec3<f32>) -> vec3<f32> {
    let root = sqrt(clamp(f0, vec3<f32>(0.0), vec3<f32>(0.9999)));
    return (1.0 + root) / (1.0 - root);
}

// The sensitivity-weighted interference for an optical path difference `opd` (nanometres)
// and phase `shift`, in linear Rec. 709.
fn film_sensitivity(opd: f32, shift: vec3<f32>) -> vec3<f32> {
    let phase = 2.0 * PI * opd * 1.0e-9;
    let value = vec3<f32>(5.4856e-13, 4.4201e-13, 5.2481e-13);
    let position = vec3<f32>(1.6810e+06, 1.7953e+06, 2.2084e+06);
    let variance = vec3<f32>(4.3278e+09, 9.3046e+09, 6.6121e+09);
    var xyz = value * sqrt(2.0 * PI * variance) * cos(position * phase + shift) * exp(-phase * phase * variance);
    xyz.x += 9.7470e-14 * sqrt(2.0 * PI * 4.5282e+09) * cos(2.2399e+06 * phase + shift.x) * exp(-4.5282e+09 * phase * phase);
    xyz /= 1.0685e-7;
    let xyz_to_rec709 = mat3x3<f32>(
        vec3<f32>(3.2404542, -0.9692660, 0.0556434),
        vec3<f32>(-1.5371385, 1.8760108, -0.2040259),
        vec3<f32>(-0.4985314, 0.0415560, 1.0572252),
    );
    return xyz_to_rec709 * xyz;
}

// The reflectance of a film of index `film_ior` and `thickness` nanometres, seen at
// `cos_view` from outside (index 1), over a base whose F0 is `base_f0`.
fn thin_film_fresnel(film_ior_in: f32, cos_view: f32, thickness: f32, base_f0: vec3<f32>) -> vec3<f32> {
    // A film that thins to nothing fades into the base.
    let film_ior = mix(1.0, film_ior_in, smoothstep(0.0, 0.03, thickness));
    let sin2_film = (1.0 / (film_ior * film_ior)) * (1.0 - cos_view * cos_view);
    let cos2_film = 1.0 - sin2_film;
    if (cos2_film < 0.0) {
        // Total internal reflection.
        return vec3<f32>(1.0);
    }
    let cos_film = sqrt(cos2_film);
    // The first interface (air to film).
    let r0 = ior_to_f0(vec3<f32>(film_ior), 1.0).x;
    let r12 = film_schlick(vec3<f32>(r0), 1.0, cos_view).x;
    let t121 = 1.0 - r12;
    let phi12 = select(0.0, PI, film_ior < 1.0);
    let phi21 = PI - phi12;
    // The second interface (film to base).
    let base_ior = f0_to_ior(base_f0);
    let r1 = ior_to_f0(base_ior, film_ior);
    let r23 = film_schlick(r1, 1.0, cos_film);
    let phi23 = select(vec3<f32>(0.0), vec3<f32>(PI), base_ior < vec3<f32>(film_ior));
    // The phase shift along the path through the film and back.
    let opd = 2.0 * film_ior * thickness * cos_film;
    let phi = vec3<f32>(phi21) + phi23;
    let r123 = clamp(r12 * r23, vec3<f32>(1e-5), vec3<f32>(0.9999));
    let root_r123 = sqrt(r123);
    let rs = t121 * t121 * r23 / (1.0 - r123);
    var reflectance = r12 + rs;
    var cm = rs - t121;
    for (var m = 1; m <= 2; m++) {
        cm *= root_r123;
        reflectance += cm * 2.0 * film_sensitivity(f32(m) * opd, f32(m) * phi);
    }
    return max(reflectance, vec3<f32>(0.0));
}

// The F0 whose Schlick curve gives `fresnel` at `cos_theta` (to light the film's colour with
// the same split-sum and direct terms as the base).
fn schlick_to_f0(fresnel: vec3<f32>, f90: f32, cos_theta: f32) -> vec3<f32> {
    let x = clamp(1.0 - cos_theta, 0.0, 1.0);
    let x5 = clamp(pow(x, 5.0), 0.0, 0.9999);
    return (fresnel - f90 * x5) / (1.0 - x5);
}
