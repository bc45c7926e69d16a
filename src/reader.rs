//! One reader for every file cspi reads: the model itself, `--param NAME=@path`,
//! and the files a model names (`read`, `read_table`, `dictionary`, `slots`,
//! `picture`). Keeping them in one place keeps the promises of
//! docs/language.md ("What a model can reach") in one place:
//!
//! - **Regular files only.** Devices, FIFOs, sockets and directories are refused
//!   from their metadata, before they are opened (opening a FIFO waits for a
//!   writer; reading `/dev/zero` never ends). The file is opened without
//!   blocking and checked again on the open descriptor, so a file swapped for
//!   a FIFO in between is refused too.
//! - **No kernel pseudo-files.** Files of `/proc`, `/sys` and the like look
//!   like regular files of size 0 or 4096 whatever they hold, and
//!   `/proc/self/environ` holds the environment: the file system type of the
//!   open descriptor is checked (Linux).
//! - **A size cap on the bytes actually read**, not on the size the metadata
//!   claims.
//! - **UTF-8 text**, with a leading byte-order mark (as spreadsheets write
//!   one) stripped, so that it never becomes part of the first value.
//! - **Errors name the path and never echo the content.** A path that is
//!   long or holds control characters is shown shortened and escaped
//!   ([`shown`]).
//! - **A sandbox** ([`Sandbox`]): with `--sandbox DIR` a model reads only
//!   files inside DIR, after following symbolic links; the file is opened
//!   beneath a descriptor of DIR (`openat2` with `RESOLVE_BENEATH`, else
//!   component by component with `O_NOFOLLOW`), so that swapping a folder
//!   for a symbolic link after the check cannot lead outside.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Why a file was not read. The texts never include the file's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    NotFound,
    PermissionDenied,
    Directory,
    Fifo,
    Device,
    Socket,
    NotRegular,
    /// A file of a kernel pseudo file system (`proc`, `sysfs`, ...).
    PseudoFile(&'static str),
    TooLarge {
        limit: u64,
    },
    NotUtf8 {
        byte: usize,
        line: usize,
    },
    SymlinkLoop,
    OutsideSandbox {
        root: String,
    },
    /// Another error of the operating system, in its words.
    Io(String),
}

impl Refusal {
    /// What is wrong, to follow "cannot read `path`: ".
    pub(crate) fn reason(&self) -> String {
        match self {
            Refusal::NotFound => "no such file".into(),
            Refusal::PermissionDenied => "permission denied".into(),
            Refusal::Directory => "it is a directory".into(),
            Refusal::Fifo => "it is a FIFO (named pipe), not a regular file".into(),
            Refusal::Device => "it is a device, not a regular file".into(),
            Refusal::Socket => "it is a socket, not a regular file".into(),
            Refusal::NotRegular => "it is not a regular file".into(),
            Refusal::PseudoFile(fs) => {
                format!("it is a kernel pseudo-file ({fs}), not a regular file")
            }
            Refusal::TooLarge { limit } => format!("it has more than {}", bytes(*limit)),
            Refusal::NotUtf8 { byte, line } => {
                format!("it is not UTF-8 text (byte {byte}, line {line})")
            }
            Refusal::SymlinkLoop => "the path is a loop of symbolic links".into(),
            Refusal::OutsideSandbox { root } => {
                format!("it is outside the sandbox `{}`", shown(Path::new(root)))
            }
            Refusal::Io(e) => e.clone(),
        }
    }

    /// A help line for the user.
    pub(crate) fn help(&self, limit_name: &str) -> String {
        match self {
            Refusal::NotFound => "paths in the model are relative to the model file; paths given \
                 on the command line to the current directory"
                .into(),
            Refusal::PermissionDenied => "check the file's permissions".into(),
            Refusal::Directory => "give the path of a file".into(),
            Refusal::Fifo
            | Refusal::Device
            | Refusal::Socket
            | Refusal::NotRegular
            | Refusal::PseudoFile(_) => {
                "cspi reads regular text files only; copy the data into a file first".into()
            }
            Refusal::TooLarge { limit } => {
                format!("{limit_name} may hold at most {}", bytes(*limit))
            }
            Refusal::NotUtf8 { .. } => "save the file as UTF-8 text".into(),
            Refusal::SymlinkLoop => "the symbolic links in the path point at each other".into(),
            Refusal::OutsideSandbox { .. } => {
                "with --sandbox DIR a model may read only files inside DIR (symbolic links are \
                 followed before the check)"
                    .into()
            }
            Refusal::Io(_) => "check the path and the file".into(),
        }
    }
}

/// A size in bytes for people: `512 MiB`, `64 KiB`, `100 bytes`.
pub(crate) fn bytes(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// The folder a model's reads are confined to (`--sandbox DIR`).
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// Canonical: absolute, symbolic links resolved.
    root: PathBuf,
    /// As the user gave it, for messages.
    given: PathBuf,
    /// The folder itself, opened once: every file is opened beneath this
    /// descriptor ([`Sandbox::open`]), never by its name from `/`.
    dir: std::sync::Arc<std::os::fd::OwnedFd>,
}

impl Sandbox {
    /// The sandbox of `dir`, which must be an existing directory.
    pub fn new(dir: &Path) -> Result<Sandbox, String> {
        let root = std::fs::canonicalize(dir)
            .map_err(|e| format!("cannot use `{}` as a sandbox: {e}", shown(dir)))?;
        if !root.is_dir() {
            return Err(format!(
                "cannot use `{}` as a sandbox: it is not a directory",
                shown(dir)
            ));
        }
        let dir_fd = open_dir(&root)
            .map_err(|e| format!("cannot use `{}` as a sandbox: {e}", shown(dir)))?;
        Ok(Sandbox {
            root,
            given: dir.to_path_buf(),
            dir: std::sync::Arc::new(dir_fd),
        })
    }

    /// Opens `canonical` (inside the root, from [`Sandbox::admit`]) beneath
    /// the root's descriptor, so that a folder swapped for a symbolic link
    /// between the check and the open cannot lead outside: `openat2` with
    /// `RESOLVE_BENEATH` where the kernel has it (Linux 5.6), else one
    /// component at a time with `O_NOFOLLOW` (the path is canonical, so any
    /// symbolic link met on the way appeared after the check and is
    /// refused).
    fn open(&self, canonical: &Path) -> Result<std::fs::File, Refusal> {
        use std::os::fd::AsRawFd;
        let outside = || Refusal::OutsideSandbox {
            root: self.given.display().to_string(),
        };
        let rel = canonical.strip_prefix(&self.root).map_err(|_| outside())?;
        let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
        let refuse = |e: std::io::Error| match e.raw_os_error() {
            Some(libc::EXDEV | libc::ELOOP) => outside(),
            _ => io_refusal(&e),
        };
        #[cfg(target_os = "linux")]
        if let Some(opened) = openat2_beneath(self.dir.as_raw_fd(), rel, flags) {
            return opened.map_err(refuse);
        }
        let mut names: Vec<&std::ffi::OsStr> = Vec::new();
        for c in rel.components() {
            match c {
                Component::Normal(n) => names.push(n),
                _ => return Err(outside()),
            }
        }
        let Some((last, dirs)) = names.split_last() else {
            return Err(Refusal::Directory);
        };
        let mut at: Option<std::os::fd::OwnedFd> = None;
        for name in dirs {
            let base = at.as_ref().map_or(self.dir.as_raw_fd(), |f| f.as_raw_fd());
            let fd = openat(
                base,
                name,
                libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
            .map_err(refuse)?;
            at = Some(fd);
        }
        let base = at.as_ref().map_or(self.dir.as_raw_fd(), |f| f.as_raw_fd());
        openat(base, last, flags | libc::O_NOFOLLOW)
            .map(std::fs::File::from)
            .map_err(refuse)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The canonical path of `path` if it lies inside the sandbox. A path that
    /// does not exist is reported as missing only when it would lie inside,
    /// so that the sandbox reveals nothing about the files outside it.
    fn admit(&self, path: &Path) -> Result<PathBuf, Refusal> {
        let outside = || Refusal::OutsideSandbox {
            root: self.given.display().to_string(),
        };
        match std::fs::canonicalize(path) {
            Ok(canonical) if canonical.starts_with(&self.root) => Ok(canonical),
            Ok(_) => Err(outside()),
            Err(e) => {
                // Where the path would lie: its deepest existing ancestor,
                // canonical, followed by the rest of it taken literally.
                let absolute = std::path::absolute(path).map_err(|e| io_refusal(&e))?;
                let mut rest = Vec::new();
                let mut base = absolute.as_path();
                let canonical_base = loop {
                    if let Ok(c) = std::fs::canonicalize(base) {
                        break c;
                    }
                    match (base.parent(), base.file_name()) {
                        (Some(parent), Some(name)) => {
                            rest.push(name.to_os_string());
                            base = parent;
                        }
                        _ => return Err(outside()),
                    }
                };
                let mut would_be = canonical_base;
                for name in rest.iter().rev() {
                    would_be.push(name);
                }
                if normalize(&would_be).starts_with(&self.root) {
                    Err(io_refusal(&e))
                } else {
                    Err(outside())
                }
            }
        }
    }
}

/// The folder `path`, opened as a descriptor to resolve paths beneath.
fn open_dir(path: &Path) -> std::io::Result<std::os::fd::OwnedFd> {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
        .open(path)?;
    Ok(dir.into())
}

/// `openat(dir, name, flags)`.
fn openat(
    dir: std::os::fd::RawFd,
    name: &std::ffi::OsStr,
    flags: libc::c_int,
) -> std::io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(name.as_bytes())
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    // SAFETY: `name` is a valid C string; the descriptor returned is ours.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    Ok(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}

/// `openat2(dir, rel, flags)` resolving beneath `dir` only (no `..` above
/// it, no absolute symbolic link, no magic link); `None` when the kernel
/// has no `openat2` (or refuses its use, as some seccomp filters do).
#[cfg(target_os = "linux")]
fn openat2_beneath(
    dir: std::os::fd::RawFd,
    rel: &Path,
    flags: libc::c_int,
) -> Option<std::io::Result<std::fs::File>> {
    use std::os::fd::FromRawFd;
    use std::os::unix::ffi::OsStrExt;
    let Ok(name) = std::ffi::CString::new(rel.as_os_str().as_bytes()) else {
        return Some(Err(std::io::ErrorKind::InvalidInput.into()));
    };
    // SAFETY: an all-zero `open_how` is valid (no flags, no resolve bits).
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = flags as u64;
    how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS;
    // SAFETY: the arguments are a descriptor, a C string and a pointer to
    // an `open_how` with its size, as openat2(2) expects.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            dir,
            name.as_ptr(),
            &how as *const libc::open_how,
            size_of::<libc::open_how>(),
        )
    };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        return match e.raw_os_error() {
            Some(libc::ENOSYS | libc::EPERM) => None,
            _ => Some(Err(e)),
        };
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    Some(Ok(unsafe { std::fs::File::from_raw_fd(fd as libc::c_int) }))
}

/// `path` with `.` and `..` resolved literally.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Reads the UTF-8 text file at `path`, at most `limit` bytes, confined to
/// `sandbox` if one is given. A leading byte-order mark is dropped.
pub(crate) fn read_text(
    path: &Path,
    limit: u64,
    sandbox: Option<&Sandbox>,
) -> Result<String, Refusal> {
    decode(read_bytes(path, limit, sandbox)?)
}

/// The bytes of the regular file at `path`, at most `limit`, confined to
/// `sandbox` if one is given: [`read_text`] without the decoding, for
/// binary files (the dictionary cache), with the same refusals.
pub(crate) fn read_bytes(
    path: &Path,
    limit: u64,
    sandbox: Option<&Sandbox>,
) -> Result<Vec<u8>, Refusal> {
    let admitted = match sandbox {
        Some(s) => Some(s.admit(path)?),
        None => None,
    };
    let path = admitted.as_deref().unwrap_or(path);
    // Refuse what is not a regular file before opening it.
    let meta = std::fs::metadata(path).map_err(|e| io_refusal(&e))?;
    kind_refusal(&meta).map_or(Ok(()), Err)?;
    let file = match sandbox {
        // Opened beneath the sandbox's descriptor, not by the name checked.
        Some(s) => s.open(path)?,
        None => open_nonblocking(path).map_err(|e| io_refusal(&e))?,
    };
    // The same checks on what was opened, in case the path changed meanwhile.
    let meta = file.metadata().map_err(|e| io_refusal(&e))?;
    kind_refusal(&meta).map_or(Ok(()), Err)?;
    if let Some(fs) = pseudo_file_system(&file) {
        return Err(Refusal::PseudoFile(fs));
    }
    if meta.len() > limit {
        return Err(Refusal::TooLarge { limit });
    }
    let mut buf = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| io_refusal(&e))?;
    if buf.len() as u64 > limit {
        return Err(Refusal::TooLarge { limit });
    }
    Ok(buf)
}

/// UTF-8 text without a leading byte-order mark.
pub(crate) fn decode(mut buf: Vec<u8>) -> Result<String, Refusal> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let skipped = if buf.starts_with(BOM) {
        buf.drain(..BOM.len());
        BOM.len()
    } else {
        0
    };
    String::from_utf8(buf).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Refusal::NotUtf8 {
            byte: at + skipped,
            line,
        }
    })
}

fn kind_refusal(meta: &std::fs::Metadata) -> Option<Refusal> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    Some(if t.is_file() {
        return None;
    } else if t.is_dir() {
        Refusal::Directory
    } else if t.is_fifo() {
        Refusal::Fifo
    } else if t.is_char_device() || t.is_block_device() {
        Refusal::Device
    } else if t.is_socket() {
        Refusal::Socket
    } else {
        Refusal::NotRegular
    })
}

fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// The name of the kernel pseudo file system the file lies on, if any.
#[cfg(target_os = "linux")]
fn pseudo_file_system(file: &std::fs::File) -> Option<&'static str> {
    use std::os::fd::AsRawFd;
    // From linux/magic.h.
    const PSEUDO: &[(i64, &str)] = &[
        (0x9fa0, "proc"),
        (0x6265_6572, "sysfs"),
        (0x6462_6720, "debugfs"),
        (0x7472_6163, "tracefs"),
        (0x7363_6673, "securityfs"),
        (0x0027_e0eb, "cgroup"),
        (0x6367_7270, "cgroup2"),
        (0x6265_6570, "configfs"),
        (0xde5e_81e4, "efivarfs"),
        (0xcafe_4a11, "bpf"),
        (0x6165_676c, "pstore"),
        (0x1cd1, "devpts"),
        (0x4244_4d41, "binfmt_misc"),
    ];
    // SAFETY: `statfs` is plain data that the call fills in; the descriptor is open.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::fstatfs(file.as_raw_fd(), &mut st) } != 0 {
        return None;
    }
    #[allow(
        clippy::unnecessary_cast,
        reason = "f_type's width differs between targets"
    )]
    let kind = st.f_type as i64;
    PSEUDO.iter().find(|(m, _)| *m == kind).map(|(_, n)| *n)
}

#[cfg(not(target_os = "linux"))]
fn pseudo_file_system(_file: &std::fs::File) -> Option<&'static str> {
    None
}

fn io_refusal(e: &std::io::Error) -> Refusal {
    match e.kind() {
        std::io::ErrorKind::NotFound => Refusal::NotFound,
        std::io::ErrorKind::PermissionDenied => Refusal::PermissionDenied,
        std::io::ErrorKind::IsADirectory => Refusal::Directory,
        // ELOOP on Linux: std's kind for it is not stable yet.
        _ if e.raw_os_error() == Some(libc::ELOOP) => Refusal::SymlinkLoop,
        _ => Refusal::Io(e.to_string()),
    }
}

/// The most characters of a path shown in a message.
const MAX_SHOWN: usize = 160;

/// A path as messages show it: control characters escaped, and a path longer
/// than [`MAX_SHOWN`] characters cut in the middle, so that a value mistaken
/// for a path cannot flood the terminal.
pub(crate) fn shown(path: &Path) -> String {
    let text = path.to_string_lossy();
    shorten(&text, MAX_SHOWN)
}

/// `text` with control characters escaped, cut in the middle (with `…` and
/// the number of characters left out) when longer than `max` characters.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    let escape = |s: &str| -> String {
        s.chars()
            .flat_map(|c| {
                let e: Vec<char> = if c.is_control() {
                    c.escape_default().collect()
                } else {
                    vec![c]
                };
                e
            })
            .collect()
    };
    let count = text.chars().count();
    if count <= max {
        return escape(text);
    }
    let head: String = text.chars().take(max * 2 / 3).collect();
    let tail: String = text.chars().skip(count - max / 3).collect();
    let left_out = count - max * 2 / 3 - max / 3;
    format!(
        "{}…({left_out} characters)…{}",
        escape(&head),
        escape(&tail)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_stripped_and_bad_bytes_located() {
        assert_eq!(decode(b"\xEF\xBB\xBF1,2\n".to_vec()).unwrap(), "1,2\n");
        assert_eq!(decode(b"1,2\n".to_vec()).unwrap(), "1,2\n");
        assert_eq!(
            decode(b"\xEF\xBB\xBFab\ncaf\xe9".to_vec()),
            Err(Refusal::NotUtf8 { byte: 9, line: 2 })
        );
    }

    #[test]
    fn long_or_strange_paths_are_shortened_and_escaped() {
        assert_eq!(shown(Path::new("a/b.txt")), "a/b.txt");
        assert_eq!(shorten("a\nb", 10), "a\\nb");
        let long = "x".repeat(1000);
        let s = shorten(&long, 30);
        assert!(s.len() < 60, "{s}");
        assert!(s.contains("(970 characters)"), "{s}");
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(bytes(512 << 20), "512 MiB");
        assert_eq!(bytes(1 << 30), "1 GiB");
        assert_eq!(bytes(1000), "1000 bytes");
    }
}
