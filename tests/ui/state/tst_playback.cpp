#include "state/parameters.h"
#include "state/playback.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

class TestPlayback : public QObject
{
    Q_OBJECT

  private slots:
    void playAdvancesPosition();
    void pauseStops();
    void loopWraps();
    void withoutLoopTheWindowSlides();
    void speedIsBounded();
    void smoothWhereTheStateHasRealPositions();
};

void TestPlayback::playAdvancesPosition()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(1000, 8, 1e4)));
    Playback play(&p);
    QSignalSpy moved(&p, &Parameters::positionChanged);
    QSignalSpy playing(&play, &Playback::playingChanged);
    play.setSpeed(200);
    play.play();
    QCOMPARE(playing.count(), 1);
    QTRY_VERIFY(moved.count() >= 5);
    QVERIFY(p.position() >= 5);
    play.pause();
}

void TestPlayback::pauseStops()
{
    Parameters p;
    Playback play(&p);
    play.setSpeed(200);
    play.toggle();
    QVERIFY(play.isPlaying());
    play.toggle();
    QVERIFY(!play.isPlaying());
    const auto at = p.position();
    QTest::qWait(100);
    QCOMPARE(p.position(), at);
}

void TestPlayback::loopWraps()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(10, 8, 1e4, 100)));
    Playback play(&p);
    QVERIFY(p.setPosition(108));
    play.advance(1);
    QCOMPARE(p.position(), 109);
    play.advance(1);
    QCOMPARE(p.position(), 100); // back to start_pos, the window unchanged
    QCOMPARE(p.values().startPos, 100);
    play.advance(25);
    QCOMPARE(p.position(), 105);
}

void TestPlayback::withoutLoopTheWindowSlides()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(10, 8, 1e4, 100)));
    Playback play(&p);
    play.setLoop(false);
    QVERIFY(p.setPosition(109));
    QSignalSpy changed(&p, &Parameters::changed);
    play.advance(3);
    QCOMPARE(p.position(), 112);
    QCOMPARE(p.values().startPos, 103); // the position is the window's last row
    QCOMPARE(changed.count(), 1);
}

void TestPlayback::speedIsBounded()
{
    Parameters p;
    Playback play(&p);
    play.setSpeed(1e9);
    QCOMPARE(play.speed(), Playback::kMaxSpeed);
    play.setSpeed(0);
    QCOMPARE(play.speed(), Playback::kMinSpeed);
}

void TestPlayback::smoothWhereTheStateHasRealPositions()
{
    // The sinusoids: the position moves between whole ones, a frame at a time.
    Parameters p;
    QVERIFY(!p.set(testsupport::params(10, 8, 1e4, 100)));
    Playback play(&p);
    play.setSpeed(2); // half a second a position: about 30 frames each
    QVERIFY(p.setPosition(100));
    bool between = false;
    QObject::connect(&p, &Parameters::positionChanged, &p,
                     [&] { between = between || p.realPosition() != std::floor(p.realPosition()); });
    play.play();
    QTRY_VERIFY_WITH_TIMEOUT(between, 2000);
    QTRY_VERIFY_WITH_TIMEOUT(p.realPosition() >= 100.5, 2000);
    play.pause();
    QVERIFY(p.realPosition() < 103); // at 2 a second, not a jump

    // A lap still takes seq_len / speed: the last position holds before the wrap.
    QVERIFY(p.setRealPosition(108.9));
    play.setSpeed(20);
    std::vector<double> seen;
    QObject::connect(&p, &Parameters::positionChanged, &p, [&] { seen.push_back(p.realPosition()); });
    play.play();
    QTRY_VERIFY_WITH_TIMEOUT(!seen.empty() && seen.back() < 105, 3000); // wrapped to the start
    play.pause();
    QVERIFY(std::find(seen.begin(), seen.end(), 109.0) != seen.end()); // held at the last
    for (double t : seen)
        QVERIFY(t >= 100 && t <= 109);

    // Noise (drawn per whole position): whole positions only.
    pe::NoiseParams noise;
    noise.sigma = 0.5;
    QVERIFY(!p.setNoise(noise));
    bool fractional = false;
    QObject::connect(&p, &Parameters::positionChanged, &p,
                     [&] { fractional = fractional || p.realPosition() != std::floor(p.realPosition()); });
    QVERIFY(p.setPosition(100));
    play.play();
    QTRY_VERIFY_WITH_TIMEOUT(p.position() >= 103, 3000);
    play.pause();
    QVERIFY(!fractional);
}

QTEST_MAIN(TestPlayback)
#include "tst_playback.moc"
