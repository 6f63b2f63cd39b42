// SPDX-License-Identifier: Apache-2.0
#pragma once
// Moving rows between ranks: every shuffle, broadcast, scatter and gather ends here. The rows of a
// frame come grouped by destination (rows [bounds[p], bounds[p + 1]) go to rank p); each rank
// gets the rows every rank sent it, concatenated in rank order, so the result is deterministic.
//
// The work is type-erased (one instantiation per schema is only the final rebuild of the typed
// frame): sizes go first (one all_to_all of a few integers per column, which also carries each
// rank's readiness and column types), then every column's buffers to every peer in one grouped
// call. A fixed-width column without nulls is sent from where it lies; a column with nulls or
// strings is first copied per destination, so that its mask and offsets start at bit and byte 0
// (strings' offsets are rebased by the copy). A dictionary column's rows go as codes with the
// sender's whole dictionary (ranks may hold different ones: read from different files); the
// receiver recodes what it got over the union of the dictionaries (unify_dictionaries) before
// concatenating, unless they are all the same (dist/exchange_pieces.hpp). Collectives, not
// bytes, are what an exchange of few rows costs on GPUs: an exchange takes three (the sizes, and
// the agreements that every rank allocated its buffers and assembled its rows).
#include <colx/dist/communicator.hpp>
#include <colx/dist/exchange_pieces.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx::dist {

namespace detail {

// Work on the frame rows arrive in while they arrive: given the frame, where this rank's own rows
// are in it and how many (below).
template <class Schema>
using while_received = std::function<void(frame<Schema> const& arriving, size_type own_first, size_type own_rows)>;

// Sends rows [begin, end) of ranges()[p] to rank p and returns what every rank sent here, in rank
// order; `ranges` may throw (bad arguments), which ends the exchange on every rank. A range the
// same as the previous rank's is prepared once and sent from the same copy (replicate).
// `meanwhile`, where given, runs while the transfer is under way (communicator::exchange_meanwhile)
// where every column is received in place (fixed-width, no rank sending nulls): the frame the rows
// arrive in is then the answer, this rank's own rows already in it; else it is not called. It
// must not call collectives; what it throws ends the exchange on every rank. (The transfer's time
// then includes it.)
template <class Schema, class Ranges>
[[nodiscard]] frame<Schema> exchange_ranges(communicator& comm, frame<Schema> const& rows, Ranges const& ranges_of,
                                            char const* step, stream_ref stream,
                                            std::type_identity_t<while_received<Schema>> const& meanwhile = {}) {
  constexpr std::size_t columns = Schema::size;
  int const ranks = comm.size();
  int const me = comm.rank();
  auto const started = std::chrono::steady_clock::now();
  resource_ref const mr = get_current_resource(comm.kind());

  // Local preparation. A rank that fails here says so in its headers (below) instead of leaving
  // the others waiting in the transfer.
  std::vector<detail::outgoing_piece> pieces;  // [peer * columns + c]
  std::size_t const words = detail::header_words(columns);
  std::vector<std::int64_t> headers(static_cast<std::size_t>(ranks) * words);
  std::exception_ptr failure;
  auto const prepare_start = std::chrono::steady_clock::now();
  std::vector<std::pair<size_type, size_type>> ranges;
  bool keeps_all = false;  // every row stays on this rank: its own piece is never sent, so not copied
  try {
    ranges = ranges_of();
    COLX_EXPECTS(rows.num_rows() == 0 || is_host_accessible(rows.kind()) == is_host_accessible(comm.kind()),
                 "colx::dist: the frame lives in ", to_string(rows.kind()), " memory, but the ", comm.name(),
                 " communicator moves ", to_string(comm.kind()), " memory");
    std::vector<any_column_view> views;
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      (views.push_back(static_cast<any_column_view>(rows.template column_at<C>())), ...);
    }(std::make_index_sequence<columns>{});
    pieces.reserve(static_cast<std::size_t>(ranks) * columns);
    keeps_all = true;
    for (int p = 0; p < ranks; ++p) {
      keeps_all = keeps_all && (p == me || ranges[static_cast<std::size_t>(p)].first == ranges[static_cast<std::size_t>(p)].second);
    }
    for (int p = 0; p < ranks; ++p) {
      auto const [begin, end] = ranges[static_cast<std::size_t>(p)];
      bool const again = p > 0 && ranges[static_cast<std::size_t>(p)] == ranges[static_cast<std::size_t>(p) - 1];
      auto* h = headers.data() + static_cast<std::size_t>(p) * words;
      h[detail::rows_word] = end - begin;
      for (std::size_t c = 0; c < columns; ++c) {
        pieces.push_back(again                    ? pieces[static_cast<std::size_t>(p - 1) * columns + c]  // shares the copy
                         : keeps_all && p == me ? detail::own_piece(views[c], begin, end, stream)
                                                  : detail::make_piece(views[c], begin, end, stream, mr));
        detail::write_header(h + detail::header_lead + detail::header_fields * c, pieces.back().header);
      }
    }
  } catch (...) {
    failure = std::current_exception();
  }
  double const prepare_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - prepare_start).count();
  // The column types as this rank holds them (decimal scales, string offsets): a rank that read
  // another file must not be misread.
  auto const fingerprint = static_cast<std::int64_t>(detail::schema_fingerprint(rows));
  for (int p = 0; p < ranks; ++p) {
    headers[static_cast<std::size_t>(p) * words + detail::failed_word] = failure ? 1 : 0;
    headers[static_cast<std::size_t>(p) * words + detail::fingerprint_word] = fingerprint;
  }

  auto const incoming = comm.all_to_all(std::span<std::int64_t const>(headers));
  auto const header_of = [&](int p) { return incoming.data() + static_cast<std::size_t>(p) * words; };
  auto const column_of = [&](int p, std::size_t c) {
    return detail::read_header(header_of(p) + detail::header_lead + detail::header_fields * c);
  };
  // Every rank sees every rank's verdict and fingerprint, so all decide alike: when one failed,
  // all gather the messages and throw (agree); then the fingerprints must match rank 0's.
  bool any_failed = false;
  std::vector<std::uint64_t> fingerprints(static_cast<std::size_t>(ranks));
  for (int p = 0; p < ranks; ++p) {
    any_failed = any_failed || header_of(p)[detail::failed_word] != 0;
    fingerprints[static_cast<std::size_t>(p)] = static_cast<std::uint64_t>(header_of(p)[detail::fingerprint_word]);
  }
  if (any_failed) { agree(comm, failure, std::string(step) + " (prepare)"); }
  expect_same_values(fingerprints, std::string("the column types of the rows of ") + step);
  std::vector<size_type> first_row(static_cast<std::size_t>(ranks) + 1, 0);  // where each rank's rows land
  for (int p = 0; p < ranks; ++p) { first_row[static_cast<std::size_t>(p) + 1] = first_row[static_cast<std::size_t>(p)] + header_of(p)[detail::rows_word]; }
  size_type const total = first_row.back();
  // Nothing leaves this rank and nothing arrives (rows already where their keys belong): the
  // frame is the answer as it is. The rank still takes part in every collective below.
  bool const unchanged = keeps_all && total == rows.num_rows() && rows.kind() == comm.kind() &&
                         ranges[static_cast<std::size_t>(me)] == std::pair<size_type, size_type>{0, rows.num_rows()};

  // Per column: a fixed-width column that no rank sends nulls of is received in place, every
  // rank's rows at their offset in one buffer (this rank's own rows copied there); any other
  // column is received per rank and concatenated (masks and offsets need rebasing).
  std::vector<any_column> out_columns(columns);
  std::vector<std::vector<any_column>> per_rank(columns);
  std::vector<send_part> sends;
  std::vector<recv_part> recvs;
  traffic_record traffic{step};
  traffic.moved_rows = true;
  auto const prepared = std::chrono::steady_clock::now();
  // Receive buffers are allocated (and this rank's own rows copied) as one step: a rank that runs
  // out of memory here must not leave the others waiting in the transfer.
  agreed(comm, std::string(step) + " (receive buffers)", [&] {
    for (std::size_t c = 0; c < columns && !unchanged; ++c) {
      data_type const type = pieces[c].view.type();
      bool in_place = type.id() != type_id::string && type.id() != type_id::dictionary;
      for (int p = 0; p < ranks && in_place; ++p) { in_place = column_of(p, c).null_count == 0; }
      if (in_place) {
        std::size_t const width = size_of(type);
        out_columns[c] = any_column(type, total, buffer(static_cast<std::size_t>(total) * width, stream, mr));
        auto* const base = total > 0 ? static_cast<char*>(out_columns[c].mutable_data(stream)) : nullptr;
        for (int p = 0; p < ranks; ++p) {
          auto const& piece = pieces[static_cast<std::size_t>(p) * columns + c];
          char* const at = base + static_cast<std::size_t>(first_row[static_cast<std::size_t>(p)]) * width;
          if (p == me) {
            if (piece.header.payload_bytes > 0) {
              colx::detail::copy_bytes(at, comm.kind(), detail::payload_of(piece.view), comm.kind(),
                                       static_cast<std::size_t>(piece.header.payload_bytes), stream);
            }
            continue;
          }
          // What this rank sends follows its own piece (its rows to p may have nulls even so).
          auto const out = detail::buffers_of(piece.view, piece.header);
          detail::add_parts(sends, p, out);
          auto const bytes = static_cast<std::size_t>(column_of(p, c).payload_bytes);
          if (bytes > 0) { recvs.push_back({p, at, bytes}); }
          traffic.bytes_sent += static_cast<std::int64_t>(out.total());
          traffic.bytes_received += static_cast<std::int64_t>(bytes);
        }
        continue;
      }
      for (int p = 0; p < ranks; ++p) {
        auto& piece = pieces[static_cast<std::size_t>(p) * columns + c];
        if (p == me) {  // this rank's own share never leaves it
          per_rank[c].push_back(piece.view.size() == 0               ? detail::empty_like(piece.view, mr)
                                : piece.owned.size() == piece.view.size() ? std::move(piece.owned)
                                                                          : copy(piece.view, stream, mr));
          continue;
        }
        detail::column_header const in = column_of(p, c);
        data_type const values_type = type.id() == type_id::dictionary ? pieces[c].view.child(0).type() : type;
        per_rank[c].push_back(detail::make_incoming(type, values_type, header_of(p)[detail::rows_word], in, stream, mr));
        auto const out = detail::buffers_of(piece.view, piece.header);
        auto const got = detail::buffers_of(per_rank[c].back(), in);
        detail::add_parts(sends, p, out);
        detail::add_parts(recvs, p, got);
        traffic.bytes_sent += static_cast<std::int64_t>(out.total());
        traffic.bytes_received += static_cast<std::int64_t>(got.total());
      }
    }
    for (int p = 0; p < ranks; ++p) {
      if (p == me) { continue; }
      traffic.rows_sent += ranges[static_cast<std::size_t>(p)].second - ranges[static_cast<std::size_t>(p)].first;
      traffic.rows_received += header_of(p)[detail::rows_word];
    }
  });
  // Every column received in place: the frame is whole before the transfer (this rank's rows in
  // it), for `meanwhile`.
  bool const all_in_place = !unchanged && std::all_of(per_rank.begin(), per_rank.end(), [](auto const& v) { return v.empty(); });
  std::optional<frame<Schema>> arriving;
  if (meanwhile && all_in_place) { arriving = detail::typed_frame<Schema>(out_columns, std::make_index_sequence<columns>{}); }
  std::exception_ptr meanwhile_failure;  // thrown in the agreed step below, so that every rank throws
  auto const transfer_start = std::chrono::steady_clock::now();
  if (arriving) {
    comm.exchange_meanwhile(sends, recvs, stream, [&] {
      try {
        auto const own = static_cast<std::size_t>(me);
        meanwhile(*arriving, first_row[own], first_row[own + 1] - first_row[own]);
      } catch (...) {
        meanwhile_failure = std::current_exception();
      }
    });
  } else {
    comm.exchange(sends, recvs, stream);
  }
  if (ranks > 1) { stream.synchronize(); }  // the pieces sent from must outlive the transfer
  auto const transfer_end = std::chrono::steady_clock::now();

  frame<Schema> out = agreed(comm, std::string(step) + " (assemble)", [&] {
    if (meanwhile_failure) { std::rethrow_exception(meanwhile_failure); }
    if (unchanged) { return rows; }
    if (arriving) { return *arriving; }
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      ((per_rank[C].empty() ? void() : void(out_columns[C] = detail::join_pieces<Schema, C>(per_rank[C], stream, mr))), ...);
    }(std::make_index_sequence<columns>{});
    return detail::typed_frame<Schema>(out_columns, std::make_index_sequence<columns>{});
  });
  auto const ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  traffic.prepare_ms = prepare_ms;
  traffic.wait_ms = ms(started, prepared) - prepare_ms;
  traffic.transfer_ms = ms(transfer_start, transfer_end);
  traffic.milliseconds = ms(started, std::chrono::steady_clock::now());
  comm.record(std::move(traffic));
  return out;
}

}  // namespace detail

// Sends rows [bounds[p], bounds[p + 1]) of `rows` to rank p (bounds has size() + 1 entries) and
// returns what every rank sent here, in rank order. Records the bytes under `step`.
template <class Schema>
[[nodiscard]] frame<Schema> exchange_rows(communicator& comm, frame<Schema> const& rows, std::span<size_type const> bounds,
                                          char const* step, stream_ref stream = {}) {
  auto const ranks = static_cast<std::size_t>(comm.size());
  return detail::exchange_ranges(comm, rows, [&] {
    COLX_EXPECTS(bounds.size() == ranks + 1 && bounds.front() == 0 && bounds.back() == rows.num_rows(),
                 "exchange_rows: bounds must split the ", rows.num_rows(), " rows over ", ranks, " ranks");
    std::vector<std::pair<size_type, size_type>> ranges(ranks);
    for (std::size_t p = 0; p < ranks; ++p) { ranges[p] = {bounds[p], bounds[p + 1]}; }
    return ranges;
  }, step, stream);
}

// Every row of `rows` to every rank: each rank gets every rank's rows, in rank order. Each column
// is prepared (copied, where it must be) once, not once a rank.
// `meanwhile`: as detail::exchange_ranges says.
template <class Schema>
[[nodiscard]] frame<Schema> exchange_to_all(communicator& comm, frame<Schema> const& rows, char const* step, stream_ref stream = {},
                                            std::type_identity_t<detail::while_received<Schema>> const& meanwhile = {}) {
  return detail::exchange_ranges(comm, rows, [&] {
    return std::vector<std::pair<size_type, size_type>>(static_cast<std::size_t>(comm.size()), {0, rows.num_rows()});
  }, step, stream, meanwhile);
}

}  // namespace colx::dist
