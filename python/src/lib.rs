//! `rigscope._native`: the Python module's compiled half, a thin layer over `rigscope::api`.
//! It turns arguments into the facade's options, releases the GIL while the facade works
//! (loading, posing, linting, rendering), hands arrays to NumPy without copying them again
//! (`PyArray::from_vec` takes the `Vec`, `reshape` is a view), and raises the exception class
//! of `rigscope.exceptions` named after the facade's error kind. Everything else is in
//! `python/rigscope/`.

use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rigscope::api;

/// `error` as the exception class of `rigscope.exceptions` that its kind names.
fn to_python(py: Python<'_>, error: api::Error) -> PyErr {
    let class = match &error {
        api::Error::NotFound(_) => "NotFoundError",
        api::Error::Unreadable(_) => "UnreadableError",
        api::Error::Invalid(_) => "InvalidFileError",
        api::Error::Unsupported(_) => "UnsupportedError",
        api::Error::Options(_) => "OptionsError",
        api::Error::Render(_) => "RenderError",
        api::Error::Write(_) => "WriteError",
        _ => "RigscopeError",
    };
    let message = error.to_string();
    let exception = py
        .import("rigscope.exceptions")
        .and_then(|module| module.getattr(class))
        .and_then(|class| class.call1((message.clone(),)));
    match exception {
        Ok(exception) => PyErr::from_value(exception),
        // Only without the pure-Python package (the native module imported on its own).
        Err(_) => PyRuntimeError::new_err(message),
    }
}

/// A flat `Vec` as a NumPy array of `shape`, without a copy.
fn array<'py, T: numpy::Element>(py: Python<'py>, data: Vec<T>, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, data).reshape(shape)?.into_any())
}

/// A loaded model and its summary (made once, at load); `rigscope.Model` wraps it.
#[pyclass(frozen, module = "rigscope._native")]
struct Model {
    inner: Arc<api::Model>,
    summary: api::Summary,
}

#[pymethods]
impl Model {
    /// The summary (joints, skins, meshes, clips, avatar, materials, warnings) as JSON, with
    /// matrices as 16 row-major numbers.
    fn summary_json(&self) -> String {
        api::summary_json(&self.summary)
    }

    /// Rest transforms (local, joint to parent), an (N, 4, 4) float32 array in joint order.
    fn rest_transforms<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let joints = &self.summary.joints;
        array(
            py,
            joints.iter().flat_map(|joint| joint.rest).collect(),
            &[joints.len(), 4, 4],
        )
    }

    /// Each skin's inverse bind matrices, (K, 4, 4) float32 arrays, row-major.
    fn inverse_binds<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        (self.summary.skins.iter())
            .map(|skin| {
                let data = skin.inverse_binds.iter().flatten().copied().collect();
                array(py, data, &[skin.inverse_binds.len(), 4, 4])
            })
            .collect()
    }

    /// Poses the model: (clip, [(node, mesh, primitive, visible, weights, positions)],
    /// joint nodes, joint names, joint world matrices (J, 4, 4)).
    #[pyo3(signature = (clip, time, expressions, springs))]
    fn pose<'py>(
        &self,
        py: Python<'py>,
        clip: Option<String>,
        time: f32,
        expressions: Vec<(String, f32)>,
        springs: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut options = api::PoseOptions::new(clip, time);
        options.expressions = expressions;
        options.springs = springs;
        let model = &self.inner;
        let posed = py.detach(|| api::pose(model, &options)).map_err(|e| to_python(py, e))?;
        let primitives = PyList::empty(py);
        for primitive in posed.primitives {
            let vertices = primitive.positions.len() / 3;
            let weight_count = primitive.weights.len();
            let item = (
                primitive.node,
                primitive.mesh,
                primitive.primitive,
                primitive.visible,
                array(py, primitive.weights, &[weight_count])?,
                array(py, primitive.positions, &[vertices, 3])?,
            );
            primitives.append(item)?;
        }
        let joints = posed.joint_nodes.len();
        let world = array(py, posed.joint_world, &[joints, 4, 4])?;
        (posed.clip, primitives, posed.joint_nodes, posed.joint_names, world)
            .into_pyobject(py)
            .map(|t| t.into_any())
    }

    /// `lint --json`'s report of this model, as JSON.
    fn lint_json(&self, py: Python<'_>) -> String {
        let model = &self.inner;
        py.detach(|| api::lint_json(&api::lint(model)))
    }
}

/// Loads a model, the GIL released.
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<Model> {
    let (model, summary) = py
        .detach(|| {
            api::load(&path).map(|model| {
                let summary = api::summary(&model);
                (Arc::new(model), summary)
            })
        })
        .map_err(|e| to_python(py, e))?;
    Ok(Model { inner: model, summary })
}

/// `rigscope inspect FILE --json`'s output.
#[pyfunction]
fn inspect(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    py.detach(|| api::inspect(&path)).map_err(|e| to_python(py, e))
}

/// Loads and lints a file: `lint --json`'s report, as JSON.
#[pyfunction]
fn lint(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    py.detach(|| api::load(&path).map(|model| api::lint_json(&api::lint(&model))))
        .map_err(|e| to_python(py, e))
}

/// `rigscope render`'s picture as an (H, W, 4) uint8 array.
#[pyfunction]
#[pyo3(signature = (path, width, height, clip, time, extra))]
fn render<'py>(
    py: Python<'py>,
    path: PathBuf,
    width: u32,
    height: u32,
    clip: Option<String>,
    time: f32,
    extra: Vec<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut options = api::RenderOptions::default();
    (options.width, options.height, options.clip, options.time, options.extra) = (width, height, clip, time, extra);
    let picture = py
        .detach(|| api::render(&path, &options))
        .map_err(|e| to_python(py, e))?;
    let shape = [picture.height as usize, picture.width as usize, 4];
    array(py, picture.rgba, &shape)
}

/// `rigscope diff A B --json`'s comparison.
#[pyfunction]
fn diff(py: Python<'_>, a: PathBuf, b: PathBuf) -> PyResult<String> {
    py.detach(|| api::diff(&a, &b)).map_err(|e| to_python(py, e))
}

/// `rigscope convert IN -o OUT --json`'s report.
#[pyfunction]
fn convert(py: Python<'_>, input: PathBuf, output: PathBuf, extra: Vec<String>) -> PyResult<String> {
    py.detach(|| api::convert(&input, &output, &extra))
        .map_err(|e| to_python(py, e))
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Model>()?;
    module.add_function(wrap_pyfunction!(load, module)?)?;
    module.add_function(wrap_pyfunction!(inspect, module)?)?;
    module.add_function(wrap_pyfunction!(lint, module)?)?;
    module.add_function(wrap_pyfunction!(render, module)?)?;
    module.add_function(wrap_pyfunction!(diff, module)?)?;
    module.add_function(wrap_pyfunction!(convert, module)?)?;
    Ok(())
}
