// A few lines of torch's C++ API, enough for nvcc to compile load_inline sources in tests
// without torch's headers (tests/cuda_nvcc.py): the kernels and their launches are real,
// the tensors are stand-ins that are never run.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

namespace at {
enum ScalarType { kFloat, kHalf, kInt };
struct TensorOptions {
    TensorOptions dtype(ScalarType) const { return *this; }
};
struct Tensor {
    template <typename T> T* data_ptr() const { return nullptr; }
    int64_t numel() const { return 0; }
    int64_t size(int64_t) const { return 0; }
    int64_t stride(int64_t) const { return 0; }
    int64_t dim() const { return 0; }
    bool is_cuda() const { return true; }
    bool is_contiguous() const { return true; }
    Tensor contiguous() const { return *this; }
    TensorOptions options() const { return {}; }
};
inline Tensor empty_like(const Tensor& t) { return t; }
inline Tensor empty(std::initializer_list<int64_t>, const TensorOptions&) { return {}; }
inline Tensor zeros(std::initializer_list<int64_t>, const TensorOptions&) { return {}; }
namespace cuda {
inline cudaStream_t getCurrentCUDAStream() { return nullptr; }
}  // namespace cuda
}  // namespace at

namespace c10::cuda {
using at::cuda::getCurrentCUDAStream;
}  // namespace c10::cuda

namespace torch {
using at::empty;
using at::empty_like;
using at::Tensor;
using at::TensorOptions;
using at::zeros;
using at::kFloat;
using at::kHalf;
using at::kInt;
}  // namespace torch

#define TORCH_CHECK(cond, ...) ((void)(cond))
