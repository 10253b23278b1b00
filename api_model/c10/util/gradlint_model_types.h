#pragma once
// gradlint LibTorch API model: types LibTorch 1.13 declares in headers the model does not
// mirror (c10::List, c10::Dict, c10::Storage, c10::Stream, c10::SymInt, at::Dimname, ...),
// declared but not defined, so that the members and functions using them in their
// signatures (IValue::toIntList, TensorBase::storage, Tensor::record_stream, ...) can be
// declared with LibTorch's types. Code that needs their members does not compile with the
// model; the generator (tools/api_coverage/generate_model.py) uses an overload that names
// one of them only when the name has no other overload.
#include <c10/macros/Macros.h>
#include <cstdint>
#include <memory>

namespace c10 {
template <class T>
class List;
template <class Key, class Value>
class Dict;
template <typename T>
class IListRef;
template <typename T, unsigned N>
class SmallVector;
template <typename T>
class SmallVectorImpl;
template <typename T>
class ArrayRef;
struct Storage;
class Stream;
class SymInt;
class SymFloat;
struct TensorImpl;
struct GeneratorImpl;
class DispatchKeySet;
enum class DispatchKey : uint16_t;
enum class Backend;
enum class QScheme : uint8_t;
enum class QEngine : uint8_t;
struct Type;
using TypePtr = std::shared_ptr<Type>;
struct DynamicType;
using PlatformType = DynamicType;
struct SourceLocation;
struct RRefInterface;
struct Allocator;
template <typename T>
class MaybeOwned;
template <typename T>
class OptionalRef;
struct UndefinedTensorImpl;
struct ClassType;
using ClassTypePtr = std::shared_ptr<ClassType>;
using SymIntArrayRef = ArrayRef<SymInt>;
namespace ivalue {
struct Tuple;
struct Object;
struct ConstantString;
struct EnumHolder;
struct PyObjectHolder;
struct Future;
struct GenericDict;
} // namespace ivalue
} // namespace c10

namespace at {
struct Dimname;
using DimnameList = c10::ArrayRef<Dimname>;
class Quantizer;
struct NamedTensorMeta;
struct NamedTensorMetaInterface;
enum class LinalgBackend : int8_t;
using DimVector = c10::SmallVector<int64_t, 5>;
using c10::Stream;
namespace cuda {
struct NVRTC;
} // namespace cuda
} // namespace at

namespace torch {
namespace jit {
struct Module;
} // namespace jit
} // namespace torch

namespace caffe2 {
class Blob;
} // namespace caffe2
