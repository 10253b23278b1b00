#pragma once
// gradlint LibTorch API model: ATen/core/TensorAccessor.h (LibTorch 1.13.1), declarations.
#include <c10/macros/Macros.h>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace at {
template <typename T>
struct DefaultPtrTraits {
  typedef T* PtrType;
};
template <typename T>
struct RestrictPtrTraits {
  typedef T* __restrict__ PtrType;
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  TensorAccessorBase(PtrType data_, const index_t* sizes_, const index_t* strides_);
  const index_t* sizes() const;
  const index_t* strides() const;
  index_t stride(index_t i) const;
  index_t size(index_t i) const;
  PtrType data();
  const PtrType data() const;
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  TensorAccessor(PtrType data_, const index_t* sizes_, const index_t* strides_);
  TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i);
  const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const;
};
template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> : public TensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  TensorAccessor(PtrType data_, const index_t* sizes_, const index_t* strides_);
  T& operator[](index_t i);
  const T& operator[](index_t i) const;
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  GenericPackedTensorAccessorBase(PtrType data_, const index_t* sizes_, const index_t* strides_);
  template <typename source_index_t, class = typename std::enable_if<GRADLINT_MODEL_IS_SAME(source_index_t, int64_t)>::type>
  GenericPackedTensorAccessorBase(PtrType data_, const source_index_t* sizes_, const source_index_t* strides_);
  index_t stride(index_t i) const;
  index_t size(index_t i) const;
  PtrType data();
  const PtrType data() const;
};
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessor : public GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  GenericPackedTensorAccessor(PtrType data_, const index_t* sizes_, const index_t* strides_);
  template <typename source_index_t, class = typename std::enable_if<GRADLINT_MODEL_IS_SAME(source_index_t, int64_t)>::type>
  GenericPackedTensorAccessor(PtrType data_, const source_index_t* sizes_, const source_index_t* strides_);
  TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i);
  const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const;
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> transpose(index_t dim1, index_t dim2) const;
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;
} // namespace at
