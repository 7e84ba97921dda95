package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// position is the line and column (1-based, in bytes) of offset in data.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// syntaxError says where in data a JSON decoding error is: "FILE:LINE:COL: not JSON: ...".
// lineNo, when not 0, is the line data is in a larger file (JSON Lines).
func syntaxError(file string, data []byte, lineNo int, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The decoder reports the offset after the byte it choked on.
		line, col := position(data, max(se.Offset-1, 0))
		if lineNo > 0 {
			line = lineNo
		}
		return fmt.Errorf("%s:%d:%d: not JSON: %v", file, line, col, err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		line, col := position(data, int64(len(bytes.TrimRight(data, " \t\r\n"))))
		if lineNo > 0 {
			line = lineNo
		}
		return fmt.Errorf("%s:%d:%d: not JSON: the text ends in the middle of a value", file, line, col)
	}
	if lineNo > 0 {
		return fmt.Errorf("%s:%d: not JSON: %v", file, lineNo, err)
	}
	return fmt.Errorf("%s: not JSON: %v", file, err)
}

// strictText refuses what encoding/json reads without a word: invalid UTF-8 (which it replaces,
// changing a pattern or an enum value) and a repeated key in an object (of which it keeps the
// last). The error names the file, the line and column (lineNo: the line of a JSON Lines
// file, 0 for a whole document) and the JSON Pointer of the place.
func strictText(file string, data []byte, lineNo int) error {
	_, err := jsonvalue.Parse(bytes.TrimRight(data, "\r"))
	var se *jsonvalue.SyntaxError
	if !errors.As(err, &se) {
		if off, ok := loneSurrogate(data); ok {
			line, col := position(data, int64(off))
			if lineNo > 0 {
				line = lineNo
			}
			return fmt.Errorf("%s:%d:%d: %s: a lone surrogate, which no UTF-8 text holds (a reader would "+
				"replace it with U+FFFD, and the gate would not be sent the schema as written): write the "+
				"character it is half of, or a \\u pair", file, line, col, data[off:off+6])
		}
		return nil
	}
	var what string
	switch {
	case strings.HasPrefix(se.Msg, "duplicate key"):
		what = "a key repeated in one object (JSON leaves open which one counts): remove one"
	case strings.Contains(se.Msg, "UTF-8"):
		what = "invalid UTF-8 (a tool file is UTF-8, RFC 8259): fix the bytes, which a reader would replace"
	default:
		return nil // a rule of the strict parser that encoding/json, which read the file, does not share
	}
	line, col := position(data, int64(se.Offset))
	if lineNo > 0 {
		line = lineNo
	}
	at := ""
	if se.Pointer != "" {
		at = "at " + se.Pointer + ": "
	}
	return fmt.Errorf("%s:%d:%d: %s%s", file, line, col, at, what)
}

// loneSurrogate finds the first \uXXXX escape of a UTF-16 surrogate that is not one half of a
// pair, in data that parsed as JSON (where a backslash is only ever inside a string).
func loneSurrogate(data []byte) (int, bool) {
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		r, ok := escapedRune(data, i)
		if !ok {
			i++ // \\ or another one-character escape
			continue
		}
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if r2, ok := escapedRune(data, i+6); ok && r2 >= 0xdc00 && r2 < 0xe000 {
				i += 11
				continue
			}
			return i, true
		case r >= 0xdc00 && r < 0xe000:
			return i, true
		}
		i += 5
	}
	return 0, false
}

// escapedRune reads the \uXXXX escape at data[i:], if there is one.
func escapedRune(data []byte, i int) (rune, bool) {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
	return rune(n), err == nil
}

// firstLine is the index of the first line of data that is not blank.
func firstLine(data []byte) int {
	i := 0
	for l := range bytes.SplitSeq(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			return i
		}
		i++
	}
	return 0
}

// MaxFileSize is the largest tool file read, in bytes; a bigger one is an error naming it.
const MaxFileSize = 64 << 20

// readFile reads name in fsys if it is a regular file (after symbolic links) of at most
// MaxFileSize bytes. A FIFO, a device or a socket is refused before it is opened: reading one
// could wait forever (a FIFO nobody writes) or never end (/dev/zero).
func readFile(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s): only regular files are read", fileKind(info.Mode()))
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%d bytes, more than the %d bytes a tool file may hold (tool.MaxFileSize)",
			info.Size(), MaxFileSize)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f)
}

// readAtMost reads the file at path, whatever its kind, up to MaxFileSize bytes.
func readAtMost(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f)
}

func readLimited(f io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("more than the %d bytes a tool file may hold (tool.MaxFileSize)", MaxFileSize)
	}
	return data, nil
}

// fileKind names what a file that is not regular is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}

// withoutBOM is data without the UTF-8 byte order mark some editors write at the start of a
// file: a signature, no part of the JSON text (RFC 8259 §8.1 lets a parser ignore it).
func withoutBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
}
