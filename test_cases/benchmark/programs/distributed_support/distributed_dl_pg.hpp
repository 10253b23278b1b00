// Stand-in for the communicator classes of n1n1n1q/distributed-dl
// (src/distributed.hpp, src/nccl_distr.cuh): thin wrappers that move tensors
// between ranks with MPI (CPU) or NCCL (GPU). Only the pieces the trainers use.
#pragma once

#include <cstddef>
#include <stdexcept>

#include <torch/torch.h>

#include "mpi.h"

extern "C" {
typedef struct ncclComm* ncclComm_t;
typedef int ncclResult_t;
typedef enum { ncclFloat32 = 7 } ncclDataType_t;
typedef enum { ncclSum = 0 } ncclRedOp_t;
ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count,
                           ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                           void* stream);
}

class ProcessGroupMPI {
 public:
  ProcessGroupMPI(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  }
  ~ProcessGroupMPI() { MPI_Finalize(); }

  int size() const { return size_; }
  int rank() const { return rank_; }
  void barrier() { MPI_Barrier(MPI_COMM_WORLD); }

  // In-place sum over all ranks.
  void all_reduce(torch::Tensor& tensor) {
    if (tensor.scalar_type() != torch::kFloat32) {
      throw std::runtime_error("Unsupported ScalarType");
    }
    MPI_Allreduce(MPI_IN_PLACE, tensor.data_ptr<float>(), static_cast<int>(tensor.numel()),
                  MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }

  void broadcast(torch::Tensor& tensor, int source = 0) {
    MPI_Bcast(tensor.data_ptr<float>(), static_cast<int>(tensor.numel()), MPI_FLOAT, source,
              MPI_COMM_WORLD);
  }

  double default_all_reduce(double value) {
    double out = 0.0;
    MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return out / size_;
  }

 private:
  int size_ = 1;
  int rank_ = 0;
};

class ProcessGroupNCCL {
 public:
  ProcessGroupNCCL(int argc, char** argv) : mpi_(argc, argv) {}

  int size() const { return mpi_.size(); }
  int rank() const { return mpi_.rank(); }
  void barrier() { mpi_.barrier(); }

  // In-place sum over all ranks on the current CUDA stream.
  void all_reduce(torch::Tensor& tensor) {
    ncclAllReduce(tensor.data_ptr<float>(), tensor.data_ptr<float>(),
                  static_cast<size_t>(tensor.numel()), ncclFloat32, ncclSum, comm_, nullptr);
  }

  double default_all_reduce(double value) { return mpi_.default_all_reduce(value); }

 private:
  ProcessGroupMPI mpi_;
  ncclComm_t comm_ = nullptr;
};
