#pragma once

#include "encodings/encoding_params.h"
#include "encodings/scheme_parameters.h"

#include <QWidget>

#include <functional>
#include <optional>
#include <string>
#include <vector>

class Parameters;
class Playback;
class QCheckBox;
class QPushButton;
class QComboBox;
class QGridLayout;
class QLabel;
class QSlider;
class ScientificSpinBox;

// Sliders, spin boxes and choices for every parameter. They write to Parameters and follow it back.
// A refused slider or choice is reported under the controls and returns to the state; a refused
// typed value is reported there too (the validator's sentence) and stays in its field, framed,
// until it is corrected or Esc restores the value in force.
// Sliders move through "stops": whole numbers 1..100, then 10 per decade and so on (seq_len,
// start_pos), steps that hit every power of two (d_model), 100 per decade (base); the spin boxes
// take any number typed and leave its judgement to the validators.
class ControlPanel : public QWidget
{
    Q_OBJECT

  public:
    // Without a Playback the panel has no play controls (the position row is always there).
    explicit ControlPanel(Parameters *parameters, Playback *playback = nullptr, QWidget *parent = nullptr);
    ~ControlPanel() override;

    QSlider *slider(pe::Field field) const;
    QString errorText() const;

  signals:
    // A parameter's slider pressed and released: what it changes in between is one gesture (the
    // undo history makes it one step).
    void gestureStarted();
    void gestureEnded();

  protected:
    void changeEvent(QEvent *event) override;

  private:
    struct Control {
        pe::Field field;
        QSlider *slider;
        std::vector<double> stops;
        QWidget *spin = nullptr;
        QString tip;
    };
    // Controls that do not apply to a position table are disabled, their tooltips saying why.
    void followScheme(const pe::EncodingParams &p);
    void followModel(const pe::EncodingParams &p);
    // A field that takes typed values: `apply` applies one or returns why not; `inForce` is the
    // value it shows when nothing is refused.
    struct Typed {
        ScientificSpinBox *spin;
        std::function<std::optional<std::string>(double)> apply;
        std::function<double()> inForce;
        double refusedOver = 0; // the value in force when the typed one was refused
        QString refusal;
    };

    void addControl(pe::Field field, const QString &label, const QString &tip, ScientificSpinBox *spin,
                    std::vector<double> stops);
    void addTyped(ScientificSpinBox *spin, std::function<std::optional<std::string>(double)> apply,
                  std::function<double()> inForce);
    void commit(std::size_t index, double value);
    void restore(std::size_t index);
    void followTyped();
    // Under the controls: `first` (a refused slider or choice), then every refused typed value.
    void showRefusals(const QString &first = QString());
    void updateErrorColor();
    void apply(pe::EncodingParams candidate);
    void followState();
    void followPosition();
    void addPositionControls(Playback *playback);
    void addNoiseControls();
    // A row for each parameter a scheme adds (control_panel_scheme.cpp), shown while it applies.
    struct SchemeControl {
        const pe::SchemeParameter *parameter;
        QLabel *label;
        QWidget *widget;
    };
    void addSchemeControls(QGridLayout *grid);
    void followSchemeControls(const pe::EncodingParams &p);

    Parameters *parameters_;
    std::vector<Control> controls_;
    std::vector<Typed> typed_;
    std::vector<SchemeControl> schemeControls_;
    QComboBox *schemeChoice_;
    QComboBox *layoutChoice_;
    QComboBox *exponentChoice_;
    QLabel *formula_;
    QLabel *model_; // the model config the parameters came from, how it mapped, what changed since
    QLabel *error_;
    QSlider *positionSlider_ = nullptr;
    ScientificSpinBox *positionSpin_ = nullptr;
    QCheckBox *noiseBox_ = nullptr;
    ScientificSpinBox *sigmaSpin_ = nullptr;
    ScientificSpinBox *seedSpin_ = nullptr;
    QComboBox *rngChoice_ = nullptr;
    double lastSigma_ = 0.5; // the sigma noise comes back with when switched on
    bool following_ = false;
};

// Slider stops: all whole numbers up to `linearTo`, then per decade `perDecade` evenly spaced
// whole numbers, ending exactly at `max`.
std::vector<double> decadeStops(double min, double linearTo, double max, int perDecade);
// 1..128, then 16 steps per octave: every power of two up to max is a stop.
std::vector<double> powerOfTwoStops(int max);
// 10^(k/perDecade) for k = 1..: a logarithmic slider that never reaches 1.
std::vector<double> logStops(double max, int perDecade);
