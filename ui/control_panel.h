#pragma once

#include "encoding_params.h"

#include <QWidget>

#include <vector>

class Parameters;
class Playback;
class QCheckBox;
class QDoubleSpinBox;
class QPushButton;
class QSpinBox;
class QAbstractSpinBox;
class QComboBox;
class QLabel;
class QSlider;

// Sliders, spin boxes and choices for every parameter. They write to Parameters (refused values
// are reported under the controls and the controls return to the state), and follow it back.
// Sliders move through "stops": whole numbers 1..100, then 10 per decade and so on (seq_len,
// start_pos), steps that hit every power of two (d_model), 100 per decade (base); the spin boxes
// take any allowed value.
class ControlPanel : public QWidget
{
    Q_OBJECT

public:
    // Without a Playback the panel has no play controls (the position row is always there).
    explicit ControlPanel(Parameters *parameters, Playback *playback = nullptr, QWidget *parent = nullptr);

    QSlider *slider(pe::Field field) const;
    QString errorText() const;

private:
    struct Control {
        pe::Field field;
        QSlider *slider;
        QAbstractSpinBox *spin;
        std::vector<double> stops;
    };

    void addControl(pe::Field field, const QString &label, const QString &tip, QAbstractSpinBox *spin,
                    std::vector<double> stops);
    void apply(pe::EncodingParams candidate);
    void followState();
    void followPosition();
    void addPositionControls(Playback *playback);
    void addNoiseControls();

    Parameters *parameters_;
    std::vector<Control> controls_;
    QComboBox *layoutChoice_;
    QComboBox *exponentChoice_;
    QLabel *formula_;
    QLabel *error_;
    QSlider *positionSlider_ = nullptr;
    QSpinBox *positionSpin_ = nullptr;
    QCheckBox *noiseBox_ = nullptr;
    QDoubleSpinBox *sigmaSpin_ = nullptr;
    QSpinBox *seedSpin_ = nullptr;
    bool following_ = false;
};

// Slider stops: all whole numbers up to `linearTo`, then per decade `perDecade` evenly spaced
// whole numbers, ending exactly at `max`.
std::vector<double> decadeStops(double min, double linearTo, double max, int perDecade);
// 1..128, then 16 steps per octave: every power of two up to max is a stop.
std::vector<double> powerOfTwoStops(int max);
// 10^(k/perDecade) for k = 1..: a logarithmic slider that never reaches 1.
std::vector<double> logStops(double max, int perDecade);
