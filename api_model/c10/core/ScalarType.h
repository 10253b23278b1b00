#pragma once
#include <c10/macros/Macros.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>
#include <c10/util/Optional.h>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace c10 {

enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  ComplexHalf,
  ComplexFloat,
  ComplexDouble,
  Bool,
  QInt8,
  QUInt8,
  QInt32,
  BFloat16,
  QUInt4x2,
  QUInt2x4,
  Undefined,
  NumOptions
};
constexpr uint16_t NumScalarTypes = static_cast<uint16_t>(ScalarType::NumOptions);

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kQUInt4x2 = ScalarType::QUInt4x2;
constexpr ScalarType kQUInt2x4 = ScalarType::QUInt2x4;

C10_API const char* toString(ScalarType t);
C10_API std::ostream& operator<<(std::ostream& stream, at::ScalarType scalar_type);
C10_API size_t elementSize(ScalarType t);
C10_API bool isIntegralType(ScalarType t, bool includeBool);
C10_API bool isFloatingType(ScalarType t);
C10_API bool isComplexType(ScalarType t);
C10_API ScalarType promoteTypes(ScalarType a, ScalarType b);

template <typename T>
struct CppTypeToScalarType;

} // namespace c10

namespace caffe2 {
// Model of caffe2::TypeMeta (returned by Tensor::dtype()).
class C10_API TypeMeta final {
 public:
  TypeMeta() noexcept;
  c10::ScalarType toScalarType() const;
  size_t itemsize() const noexcept;
  const char* name() const noexcept;
  template <typename T>
  bool Match() const noexcept;
  template <typename T>
  static TypeMeta Make();
  static TypeMeta fromScalarType(c10::ScalarType scalar_type);
  TypeMeta& operator=(c10::ScalarType scalar_type);
  friend bool operator==(const TypeMeta lhs, const TypeMeta rhs) noexcept;
};
inline bool operator!=(const TypeMeta lhs, const TypeMeta rhs) noexcept { return !(lhs == rhs); }
C10_API std::ostream& operator<<(std::ostream& stream, caffe2::TypeMeta typeMeta);
} // namespace caffe2

namespace c10 {
C10_API caffe2::TypeMeta scalarTypeToTypeMeta(ScalarType scalar_type);
C10_API ScalarType typeMetaToScalarType(caffe2::TypeMeta dtype);
C10_API bool operator==(const ScalarType t, const caffe2::TypeMeta m);
C10_API bool operator==(const caffe2::TypeMeta m, const ScalarType t);
C10_API bool operator!=(const ScalarType t, const caffe2::TypeMeta m);
C10_API bool operator!=(const caffe2::TypeMeta m, const ScalarType t);
} // namespace c10
