// SPDX-License-Identifier: Apache-2.0
#pragma once
// A file written whole or not at all, for the file writers: bytes go to a file of its own beside
// the path (named by process and a counter, so writers of one path never meet), which replaces the
// path when the writer commits; an error, or a sink dropped before commit(), leaves no file.
#include <colx/io/file_source.hpp>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include <unistd.h>

namespace colx {

class file_sink {
 public:
  explicit file_sink(std::string path) : _path(std::move(path)), _partial(partial_name(_path)), _file(std::fopen(_partial.c_str(), "wb")) {
    if (_file == nullptr) { throw io_error(_path + ": cannot be written (" + std::strerror(errno) + ")"); }
  }
  file_sink(file_sink const&) = delete;
  file_sink& operator=(file_sink const&) = delete;
  ~file_sink() {
    if (_file != nullptr) {
      std::fclose(_file);
      std::remove(_partial.c_str());
    }
  }

  void write(void const* p, std::size_t n) {
    if (n > 0 && std::fwrite(p, 1, n, _file) != n) { throw io_error(_path + ": write failed (" + std::strerror(errno) + ")"); }
    _offset += static_cast<std::int64_t>(n);
  }
  [[nodiscard]] std::int64_t offset() const noexcept { return _offset; }

  // Closes the file and puts it at the path.
  void commit() {
    int const rc = std::fclose(std::exchange(_file, nullptr));
    if (rc != 0 || std::rename(_partial.c_str(), _path.c_str()) != 0) {
      std::string const why = std::strerror(errno);
      std::remove(_partial.c_str());
      throw io_error(_path + ": " + (rc != 0 ? "write failed at close (" : "cannot be replaced (") + why + ")");
    }
  }

 private:
  static std::string partial_name(std::string const& path) {
    static std::atomic<unsigned> writes{0};
    return path + ".colx-partial-" + std::to_string(::getpid()) + "-" + std::to_string(writes++);
  }
  std::string _path, _partial;
  std::FILE* _file;
  std::int64_t _offset = 0;
};

}  // namespace colx
