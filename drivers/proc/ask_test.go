package proc

import (
	"strings"
	"time"
)

// ask sends cmd to a test bot and returns its answer: the test bots write
// "= text\n\n", and answer is text (the lines up to the empty line,
// joined by "\n", without the leading "= "). It tests the session's mechanics (clock,
// faults, limits, reaping), not a game's framing, which drivers/gtp reads
// and tests.
func ask(s *Session, cmd string) (answer string, err error) {
	s.Send(cmd)
	return receive(s)
}

// receive reads the answer to the next command a Send wrote, as ask does.
func receive(s *Session) (answer string, err error) {
	var lines []string
	err = s.Receive(func(deadline time.Time) error {
		for {
			line, err := s.ReadLine(deadline)
			if err != nil {
				return err
			}
			if line == "" && len(lines) > 0 {
				return nil
			}
			if line != "" {
				lines = append(lines, line)
			}
		}
	})
	return strings.TrimPrefix(strings.Join(lines, "\n"), "= "), err
}
