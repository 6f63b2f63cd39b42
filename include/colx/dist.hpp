// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx over several ranks (GPUs or processes): dist_frame and its distributed operations. The
// transports are included on their own, since each needs its library: colx/dist/mpi_communicator.hpp
// (MPI, host memory) and colx/dist/nccl_communicator.hpp (NCCL, device memory).
#include <colx/colx.hpp>
#include <colx/dist/communicator.hpp>
#include <colx/dist/dist_frame.hpp>
#include <colx/dist/explain.hpp>
#include <colx/dist/group_by.hpp>
#include <colx/dist/join.hpp>
#include <colx/dist/limits.hpp>
#include <colx/dist/reduce.hpp>
#include <colx/dist/self_communicator.hpp>
#include <colx/dist/shuffle.hpp>
#include <colx/dist/sort.hpp>
#include <colx/dist/top_k.hpp>
