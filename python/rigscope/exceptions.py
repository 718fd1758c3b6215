"""The exceptions rigscope raises: one class per kind of failure, all subclasses of
:class:`RigscopeError`. Messages are the words the ``rigscope`` command prints."""


class RigscopeError(Exception):
    """Anything rigscope could not do; the message says what and names the file."""


class NotFoundError(RigscopeError, FileNotFoundError):
    """The file does not exist (also a :class:`FileNotFoundError`)."""


class UnreadableError(RigscopeError, OSError):
    """The file exists but could not be read (permissions, a folder, an I/O error)."""


class InvalidFileError(RigscopeError, ValueError):
    """The file's data is wrong: not the format its name says, broken JSON, bad indices."""


class UnsupportedError(RigscopeError):
    """A file type, or a feature of a file, that rigscope does not read."""


class OptionsError(RigscopeError, ValueError):
    """An option that does not fit the model: an unknown clip or expression, a bad number."""


class RenderError(RigscopeError):
    """The picture could not be drawn (no graphics adapter, a GPU error)."""


class WriteError(RigscopeError, OSError):
    """The output could not be written."""


__all__ = [
    "RigscopeError",
    "NotFoundError",
    "UnreadableError",
    "InvalidFileError",
    "UnsupportedError",
    "OptionsError",
    "RenderError",
    "WriteError",
]
