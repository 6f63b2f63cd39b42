// SPDX-License-Identifier: Apache-2.0
#pragma once
// A file opened for reading ranges of bytes (POSIX pread), for the file readers. Failures to open
// or read are io_errors naming the file and the operating system's reason.
#include <colx/core/error.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace colx {

// The operating system could not open or read a file.
class io_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class file_source {
 public:
  explicit file_source(std::string path) : _path(std::move(path)) {
    _fd = ::open(_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (_fd < 0) { fail("cannot open"); }
    struct stat st {};
    if (::fstat(_fd, &st) != 0) {
      int const e = errno;
      ::close(_fd);
      errno = e;
      fail("cannot stat");
    }
    if (S_ISDIR(st.st_mode)) {
      ::close(_fd);
      _fd = -1;
      COLX_FAIL_AS(io_error, _path, " is a directory, not a file");
    }
    _size = static_cast<std::uint64_t>(st.st_size);
  }
  file_source(file_source&& other) noexcept
      : _path(std::move(other._path)), _fd(std::exchange(other._fd, -1)), _size(other._size) {}
  file_source& operator=(file_source&&) = delete;
  file_source(file_source const&) = delete;
  file_source& operator=(file_source const&) = delete;
  ~file_source() {
    if (_fd >= 0) { ::close(_fd); }
  }

  [[nodiscard]] std::string const& path() const noexcept { return _path; }
  [[nodiscard]] std::uint64_t size() const noexcept { return _size; }

  // Reads out.size() bytes at `offset`, all of them or an io_error.
  void read(std::uint64_t offset, std::span<std::uint8_t> out) const {
    COLX_EXPECTS_AS(io_error, offset <= _size && out.size() <= _size - offset, _path, ": a read of ", out.size(),
                    " bytes at offset ", offset, " runs past the end of the file (", _size, " bytes)");
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t const n = ::pread(_fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) { continue; }
      if (n <= 0) { fail(n == 0 ? "unexpected end of file reading" : "cannot read"); }
      done += static_cast<std::size_t>(n);
    }
  }

 private:
  [[noreturn]] void fail(char const* what) const {
    int const e = errno;
    COLX_FAIL_AS(io_error, what, " ", _path, ": ", std::strerror(e));
  }

  std::string _path;
  int _fd = -1;
  std::uint64_t _size = 0;
};

}  // namespace colx
