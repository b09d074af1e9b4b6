#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class Parameters;

// Play/pause for the current position: advances it at a chosen speed in positions per second.
// With looping on (the default) it wraps from the window's last position to its first, so the
// window the seeds draw stays put; with it off the window slides along (Parameters::stepPosition).
// Where the state has positions between whole ones (Parameters::takesRealPositions) the position
// moves smoothly, a tick every 16 ms by the time that passed; elsewhere it moves a whole position
// at a time, each shown for 1/speed seconds. Either way a lap of the loop takes seq_len / speed.
class Playback : public QObject
{
    Q_OBJECT

  public:
    explicit Playback(Parameters *parameters, QObject *parent = nullptr);

    bool isPlaying() const { return timer_.isActive(); }
    double speed() const { return speed_; }
    bool loops() const { return loop_; }

    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 1000.0;

  public slots:
    void play();
    void pause();
    void toggle();
    // Clamped to [kMinSpeed, kMaxSpeed]; the control offering it has the same range.
    void setSpeed(double positionsPerSecond);
    void setLoop(bool on);
    // One step of playback by hand, as a tick would take it.
    void advance(std::int64_t positions);

  signals:
    void playingChanged(bool playing);

  private:
    void tick();
    void advanceReal(double positions);

    Parameters *parameters_;
    QTimer timer_;
    QElapsedTimer clock_;
    double speed_ = 4.0;
    double carry_ = 0.0;
    // Smooth looping: where in the lap playback is (from start_pos), and the real position it set
    // last; a position moved by anything else restarts the lap from there. The lap's last stretch
    // holds the last position, as whole-position playback shows it for 1/speed too.
    double phase_ = 0.0;
    double lastSet_ = -1.0;
    bool loop_ = true;
};
