#pragma once

#include "encoding.h"

#include <QObject>

#include <memory>
#include <optional>

// The one state object of the window: owns the encoding parameters and the Encoding built from
// them, and announces every change with one signal. Controls write here; views only listen.
class Parameters : public QObject
{
    Q_OBJECT

public:
    explicit Parameters(QObject *parent = nullptr);

    const pe::EncodingParams &values() const { return values_; }
    const pe::Encoding &encoding() const { return *encoding_; }

    // Applies the values if the validator accepts them; otherwise changes nothing and returns why.
    std::optional<pe::ValidationError> set(const pe::EncodingParams &values);

signals:
    void changed();

private:
    pe::EncodingParams values_;
    std::shared_ptr<const pe::Encoding> encoding_;
};
