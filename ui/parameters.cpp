#include "parameters.h"

Parameters::Parameters(QObject *parent)
    : QObject(parent)
    , encoding_(std::make_shared<pe::Encoding>(values_))
{
}

std::optional<pe::ValidationError> Parameters::set(const pe::EncodingParams &values)
{
    if (auto error = pe::validate(values))
        return error;
    if (values == values_)
        return std::nullopt;
    values_ = values;
    encoding_ = std::make_shared<pe::Encoding>(values_);
    emit changed();
    return std::nullopt;
}
